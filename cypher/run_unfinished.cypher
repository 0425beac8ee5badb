// run_unfinished: the most recent resolution run (not a human decision) left 'running' by an
// interrupted `kgres resolve`.
// Params: $strategies list<string> (the strategies `kgres resolve` runs).
MATCH (r:ResolutionRun {status: 'running'})
WHERE r.strategy IN $strategies
RETURN r.id AS id, r.parent AS parent, r.config AS config, r.strategy AS strategy, r.focus AS focus,
       coalesce(r.incremental, false) AS incremental,
       [i IN range(0, size(coalesce(r.carried_a, [])) - 1) | [r.carried_a[i], r.carried_b[i]]] AS carried
ORDER BY r.started_at DESC, r.id DESC
LIMIT 1
