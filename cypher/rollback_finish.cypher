// rollback_finish: drop the run's candidate pairs and mark the run rolled back (the node stays for audit).
// Params: $run_id string.
MATCH (r:ResolutionRun {id: $run_id})
CALL (r) {
  MATCH ()-[c:CANDIDATE {run_id: $run_id}]->()
  DELETE c
}
SET r.status = 'rolled_back', r.rolled_back_at = datetime()
RETURN r.id AS id
