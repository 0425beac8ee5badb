// resolve_model_use: resolve_model_store for a model already kept (a pass or an increment scoring with a
// model read from the database): its thresholds and the run's USED link, without sending the model
// again (its JSON is some 70 KB: 13-29 ms a pass of an increment of 100 mentions). No row: no such model.
// Params: $id string, $run_id string or null, $auto_threshold, $review_threshold, $expected_precision,
//         $expected_recall floats.
MATCH (x:MatchModel {id: $id})
SET x.auto_threshold = $auto_threshold, x.review_threshold = $review_threshold,
    x.expected_precision = $expected_precision, x.expected_recall = $expected_recall
WITH x
OPTIONAL MATCH (r:ResolutionRun {id: $run_id})
FOREACH (_ IN CASE WHEN r IS NOT NULL THEN [1] ELSE [] END | MERGE (r)-[:USED]->(x))
RETURN x.id AS id
