// run_finish: mark a ResolutionRun done with its stats (JSON string), and drop its merge plan
// (resolve_merge_plan_write), in one transaction.
// Params: $run_id, $stats strings.
MATCH (r:ResolutionRun {id: $run_id})
SET r.finished_at = datetime(), r.stats = $stats, r.status = 'done'
WITH r
OPTIONAL MATCH (p:MergePlan {run_id: $run_id})
DELETE p
