// report_runs: resolution runs (first passes and human decisions), newest first, with their stats.
// Params: $limit int.
MATCH (r:ResolutionRun)
WHERE r.parent IS NULL
RETURN r.id AS id, r.strategy AS strategy, r.status AS status, toString(r.started_at) AS started_at,
       r.stats AS stats
ORDER BY r.started_at DESC, r.id DESC
LIMIT $limit
