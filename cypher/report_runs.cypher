// report_runs: resolution runs (first passes and human decisions), newest first, with the stats of
// each of their passes, oldest first (a `kgres resolve` is its first run and the later passes,
// `<id>.2`, `<id>.3`..., that name it as parent).
// Params: $limit int.
MATCH (r:ResolutionRun)
WHERE r.parent IS NULL
WITH r ORDER BY r.started_at DESC, r.id DESC LIMIT $limit
CALL (r) {
  OPTIONAL MATCH (p:ResolutionRun {parent: r.id})
  WITH p ORDER BY p.started_at, p.id
  RETURN [s IN collect(p.stats) WHERE s IS NOT NULL] AS later
}
RETURN r.id AS id, r.strategy AS strategy, r.status AS status, toString(r.started_at) AS started_at,
       [s IN [r.stats] + later WHERE s IS NOT NULL] AS stats
ORDER BY r.started_at DESC, r.id DESC
