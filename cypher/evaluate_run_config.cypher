// evaluate_run_config: the stored config (JSON) of a resolution run.
// Params: $run_id string.
MATCH (r:ResolutionRun {id: $run_id})
RETURN r.config AS config
