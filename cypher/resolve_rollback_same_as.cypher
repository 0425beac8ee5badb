// resolve_rollback_same_as: remove up to $limit of the SAME_AS links a run wrote (called until it removes none).
// Params: $run_id string, $limit int.
MATCH ()-[s:SAME_AS {run_id: $run_id}]->()
WITH s LIMIT $limit
DELETE s
RETURN count(*) AS removed
