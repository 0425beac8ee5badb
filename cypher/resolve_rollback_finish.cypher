// resolve_rollback_finish: mark the run rolled back (the node stays for audit; its candidate pairs were
// deleted by resolve_rollback_candidates).
// Params: $run_id string.
MATCH (r:ResolutionRun {id: $run_id})
SET r.status = 'rolled_back', r.rolled_back_at = datetime()
RETURN r.id AS id
