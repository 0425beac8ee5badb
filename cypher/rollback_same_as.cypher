// rollback_same_as: remove the SAME_AS links a run wrote.
// Params: $run_id string.
MATCH ()-[s:SAME_AS {run_id: $run_id}]->()
DELETE s
RETURN count(*) AS removed
