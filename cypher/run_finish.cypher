// run_finish: mark a ResolutionRun done with its stats (JSON string).
// Params: $run_id, $stats strings.
MATCH (r:ResolutionRun {id: $run_id})
SET r.finished_at = datetime(), r.stats = $stats, r.status = 'done'
