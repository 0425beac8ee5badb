// run_children: the later passes of a resolution run that are not rolled back, newest first.
// Params: $run_id string.
MATCH (r:ResolutionRun {parent: $run_id})
WHERE r.status <> 'rolled_back'
RETURN r.id AS id
ORDER BY r.started_at DESC, r.id DESC
