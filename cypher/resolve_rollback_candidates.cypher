// resolve_rollback_candidates: delete up to $limit of a run's CANDIDATE pairs; the caller repeats until
// none are left (a million pairs in one transaction exceed its memory).
// Params: $run_id string, $limit int.
MATCH ()-[c:CANDIDATE {run_id: $run_id}]->()
WITH c LIMIT $limit
DELETE c
RETURN count(*) AS removed
