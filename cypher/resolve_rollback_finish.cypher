// resolve_rollback_finish: mark the run rolled back (the node stays for audit; its candidate pairs were
// deleted by resolve_rollback_candidates) and drop the merge plan of a run rolled back unfinished.
// Params: $run_id string.
MATCH (r:ResolutionRun {id: $run_id})
SET r.status = 'rolled_back', r.rolled_back_at = datetime()
WITH r
OPTIONAL MATCH (p:MergePlan {run_id: $run_id})
DELETE p
RETURN DISTINCT r.id AS id
