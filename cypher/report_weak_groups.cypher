// report_weak_groups: merged entities ordered by the weakest decision that put a mention there
// (low internal similarity: the first place to look for an over-merge).
// Params: $limit int.
MATCH (m:Mention)-[r:REFERS_TO]->(e:Entity)
WHERE r.method <> 'ingest'
WITH e, min(r.confidence) AS weakest, avg(r.confidence) AS mean, count(m) AS moved
RETURN e.id AS id, e.name AS name, round(weakest, 4) AS weakest, round(mean, 4) AS mean, moved,
       e.mention_count AS mentions
ORDER BY weakest, id
LIMIT $limit
