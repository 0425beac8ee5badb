// resolve_last_run: the latest finished `kgres resolve` (a first pass of $strategies, not rolled back)
// that new mentions can join incrementally, its match model, and whether anything but imports
// happened since it started: a later run of any kind (a decision, a split, a baseline) not rolled
// back, or a decision label. Entities whose mentions an import brought after it started are what `resolve --new` resolves.
// trained_mentions: how many mentions the graph had when the model was trained (null: pinned, imported).
// keys: the name-key version its normalize left on every entity (null before kgres recorded it).
// A run whose later passes are not all done (interrupted, or partly rolled back) is not one.
// Params: $strategies list<string>.
MATCH (r:ResolutionRun)
WHERE r.parent IS NULL AND r.strategy IN $strategies AND r.status = 'done'
  AND NOT EXISTS { MATCH (c:ResolutionRun {parent: r.id}) WHERE c.status <> 'done' }
WITH r ORDER BY r.started_at DESC, r.id DESC LIMIT 1
OPTIONAL MATCH (p:ResolutionRun)-[:TRAINED|USED]->(x:MatchModel)
WHERE p.id = r.id OR p.parent = r.id
WITH r, x ORDER BY x.trained_at DESC
WITH r, head(collect(x)) AS x
OPTIONAL MATCH (t:ResolutionRun)-[:TRAINED]->(x)
WITH r, x, min(t.mentions) AS trained_mentions
RETURN r.id AS id, r.strategy AS strategy, r.config AS config, toString(r.started_at) AS started_at, r.keys AS keys,
       x.model_json AS model_json, coalesce(x.pinned, false) AS pinned, trained_mentions,
       EXISTS { MATCH (o:ResolutionRun) WHERE o.started_at > r.started_at AND o.parent IS NULL
                AND o.status <> 'rolled_back' } OR
       EXISTS { MATCH (l:PairLabel) WHERE l.decided_at >= r.started_at } AS changed_since
