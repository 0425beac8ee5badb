// evaluate_run_pairs: the scored CANDIDATE pairs of one pass, whatever became of their entities.
// Params: $run_id string. Streamed.
MATCH (a)-[c:CANDIDATE {run_id: $run_id}]->(b)
USING INDEX c:CANDIDATE(run_id)
WHERE c.score IS NOT NULL
RETURN a.id AS a, b.id AS b, c.score AS score, c.name_rule AS name_rule, c.cannot_link AS cannot_link,
       c.signals_json AS signals
