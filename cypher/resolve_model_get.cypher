// resolve_model_get: match models, newest first: one by id ($id), or the pinned ones ($pinned true),
// or all ($id null, $pinned false).
// Params: $id string or null, $pinned bool, $limit int.
MATCH (x:MatchModel)
WHERE ($id IS NULL OR x.id = $id) AND (NOT $pinned OR x.pinned)
RETURN x.id AS id, x.version AS version, x.model_json AS model_json, x.spec_json AS spec_json,
       toString(x.trained_at) AS trained_at, x.run_id AS run_id, x.pinned AS pinned, x.prior AS prior,
       x.pairs AS pairs, x.labels AS labels, x.auto_threshold AS auto_threshold,
       x.review_threshold AS review_threshold, x.expected_precision AS expected_precision,
       x.expected_recall AS expected_recall
ORDER BY x.trained_at DESC, x.id
LIMIT $limit
