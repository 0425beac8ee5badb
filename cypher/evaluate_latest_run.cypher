// evaluate_latest_run: the most recent finished resolution run of kgres's own (default or rules; its first pass).
// Params: none.
MATCH (r:ResolutionRun {status: 'done'})
WHERE r.strategy IN ['default', 'rules'] AND r.parent IS NULL
RETURN r.id AS id
ORDER BY r.started_at DESC, r.id DESC
LIMIT 1
