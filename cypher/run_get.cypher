// run_get: one ResolutionRun by id.
// Params: $run_id string.
MATCH (r:ResolutionRun {id: $run_id})
RETURN r.id AS id, r.status AS status, r.started_at AS started_at, r.stats AS stats
