// console_queue: the console's review queue: undecided pairs between current Entities whose newest
// verdict (any run, any band) is review. Filters, null for any: $type (either side's type), $run (the
// run that scored the pair), $source (either side has a mention from this source system).
// Params: $type, $run, $source strings or null.
MATCH (a:Entity)-[r:CANDIDATE {band: 'review'}]->(b:Entity)
WHERE r.decision IS NULL AND NOT EXISTS { (a)-[:NOT_SAME_AS]-(b) }
  AND ($type IS NULL OR a.type = $type OR b.type = $type)
WITH DISTINCT a, b
// the pair's newest verdict, whatever its band (a later pass may have rejected it): newest first
// by resolve, then by pass ("run.10" after "run.9", which text order reverses)
MATCH (a)-[c:CANDIDATE]-(b)
WITH a, b, c ORDER BY split(c.run_id, '.')[0] DESC, coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC
WITH a, b, head(collect(c)) AS c
WHERE c.band = 'review' AND ($run IS NULL OR c.run_id = $run)
  AND ($source IS NULL OR EXISTS { (:Mention {source_system: $source})-[:REFERS_TO]->(a) }
                       OR EXISTS { (:Mention {source_system: $source})-[:REFERS_TO]->(b) })
RETURN a.id AS a_id, a.name AS a_name, a.type AS a_type, b.id AS b_id, b.name AS b_name, b.type AS b_type,
       c.score AS score, c.run_id AS run_id, c.deferred_by AS deferred_by
