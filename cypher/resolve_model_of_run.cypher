// resolve_model_of_run: the match model a run trained or used (a later pass uses its first pass's),
// with the thresholds it was applied at.
// Params: $run_id string.
MATCH (:ResolutionRun {id: $run_id})-[:TRAINED|USED]->(x:MatchModel)
RETURN x.id AS id, x.model_json AS model_json, x.auto_threshold AS auto_threshold,
       x.review_threshold AS review_threshold
ORDER BY x.trained_at DESC
LIMIT 1
