// resolve_model_store: keep a match model, linked to the run that trained it (TRAINED) or used it (USED).
// Params: $id, $version, $model_json, $spec_json strings, $run_id string or null, $trained bool,
//         $pinned bool, $prior, $auto_threshold, $review_threshold, $expected_precision,
//         $expected_recall floats, $pairs, $labels ints.
MERGE (x:MatchModel {id: $id})
ON CREATE SET x.version = $version, x.model_json = $model_json, x.spec_json = $spec_json, x.trained_at = datetime(),
              x.run_id = $run_id, x.pinned = $pinned, x.prior = $prior, x.pairs = $pairs, x.labels = $labels
SET x.auto_threshold = $auto_threshold, x.review_threshold = $review_threshold,
    x.expected_precision = $expected_precision, x.expected_recall = $expected_recall
WITH x
OPTIONAL MATCH (r:ResolutionRun {id: $run_id})
FOREACH (_ IN CASE WHEN r IS NOT NULL AND $trained THEN [1] ELSE [] END | MERGE (r)-[:TRAINED]->(x))
FOREACH (_ IN CASE WHEN r IS NOT NULL AND NOT $trained THEN [1] ELSE [] END | MERGE (r)-[:USED]->(x))
RETURN x.id AS id
