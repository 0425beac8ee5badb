// evaluate_latest_run: the most recent finished default-strategy resolution run (its first pass).
// Params: none.
MATCH (r:ResolutionRun {status: 'done', strategy: 'default'})
WHERE r.parent IS NULL
RETURN r.id AS id
ORDER BY r.started_at DESC, r.id DESC
LIMIT 1
