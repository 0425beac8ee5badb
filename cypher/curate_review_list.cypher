// curate_review_list: pairs of current Entities that a run put in the review band and nobody decided yet,
// best score first; a pair is listed while its newest verdict (any run, any band) is review.
// Params: $limit int.
MATCH (a:Entity)-[r:CANDIDATE {band: 'review'}]->(b:Entity)
WHERE r.decision IS NULL AND NOT EXISTS { (a)-[:NOT_SAME_AS]-(b) }
WITH DISTINCT a, b
// the pair's newest verdict, whatever its band (a later pass may have rejected it): newest first
// by resolve, then by pass ("run.10" after "run.9", which text order reverses)
MATCH (a)-[c:CANDIDATE]-(b)
WITH a, b, c ORDER BY split(c.run_id, '.')[0] DESC, coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC
WITH a, b, head(collect(c)) AS c
WHERE c.band = 'review'
RETURN a.id AS a_id, a.name AS a_name, a.type AS a_type, b.id AS b_id, b.name AS b_name, b.type AS b_type,
       c.score AS score, c.run_id AS run_id, c.signals_json AS signals
ORDER BY score DESC, a_id, b_id
LIMIT $limit
