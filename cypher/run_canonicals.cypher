// run_canonicals: the entities a run has merged mentions into (to refresh after an interruption).
// Params: $run_id string.
MATCH (:Mention)-[:REFERS_TO {run_id: $run_id}]->(c:Entity)
RETURN DISTINCT c.id AS id
ORDER BY id
