// curate_review_list: pairs of current Entities that a run put in the review band and nobody decided yet,
// best score first; the newest run's verdict per pair.
// Params: $limit int.
MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]->(b:Entity)
WHERE c.decision IS NULL AND NOT EXISTS { (a)-[:NOT_SAME_AS]-(b) }
// newest first: by resolve, then by pass ("run.10" after "run.9", which text order reverses)
WITH a, b, c ORDER BY split(c.run_id, '.')[0] DESC, coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC
WITH a, b, head(collect(c)) AS c
RETURN a.id AS a_id, a.name AS a_name, a.type AS a_type, b.id AS b_id, b.name AS b_name, b.type AS b_type,
       c.score AS score, c.run_id AS run_id, c.signals_json AS signals
ORDER BY score DESC, a_id, b_id
LIMIT $limit
