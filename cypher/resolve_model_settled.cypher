// resolve_model_settled: the match model the latest resolution used, when nothing has happened to
// the graph since it started: it is the latest run of all (no decision, split or model training
// after it), it finished, no import and no decision label is newer, and no model is pinned. A
// second `kgres resolve` then scores with the same weights and reaches the same fixed point,
// instead of retraining on its own merges and merging more.
// Params: $strategy string.
MATCH (r:ResolutionRun)
WHERE r.parent IS NULL
WITH r ORDER BY r.started_at DESC, r.id DESC LIMIT 1
WITH r WHERE r.strategy = $strategy AND r.status = 'done'
  AND NOT EXISTS { MATCH (i:IngestRun) WHERE i.started_at >= r.started_at }
  AND NOT EXISTS { MATCH (l:PairLabel) WHERE l.decided_at >= r.started_at }
  AND NOT EXISTS { MATCH (x:MatchModel) WHERE x.pinned }
MATCH (p:ResolutionRun)-[:TRAINED|USED]->(x:MatchModel)
WHERE p.id = r.id OR p.parent = r.id
RETURN x.model_json AS model_json
ORDER BY x.trained_at DESC
LIMIT 1
