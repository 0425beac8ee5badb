// report_near_duplicates: the best-scoring candidate pairs whose entities are both still separate
// and not declared different: the duplicates resolution left (review band first, by score).
// Params: $limit int.
MATCH (a:Entity)-[c:CANDIDATE]->(b:Entity)
WHERE c.score > 0 AND NOT EXISTS { (a)-[:NOT_SAME_AS]-(b) }
WITH a, b, max(c.score) AS score, collect(DISTINCT c.band) AS bands
RETURN a.id AS a_id, a.name AS a, b.id AS b_id, b.name AS b, score, bands
ORDER BY score DESC, a_id, b_id
LIMIT $limit
