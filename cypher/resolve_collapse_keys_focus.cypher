// resolve_collapse_keys_focus: resolve_collapse_keys for the groups that hold one of the entities in $ids
// (an incremental resolve: new copies of a name the graph already has), through the key index.
// Params: $ids list<string>.
UNWIND $ids AS fid
MATCH (f:Entity {id: fid})
WHERE f.key_core IS NOT NULL AND f.key_core <> ''
WITH DISTINCT f.key_core AS core, f.norm_type AS type, f.key_gender AS gender
MATCH (e:Entity {key_core: core})
WHERE (e.norm_type = type OR (e.norm_type IS NULL AND type IS NULL))
  AND (e.key_gender = gender OR (e.key_gender IS NULL AND gender IS NULL))
WITH core, type, gender, e.key_tokens AS tokens, e.id AS id
ORDER BY id
WITH core, type, gender, head(collect(tokens)) AS tokens, collect(id) AS ids
WHERE size(ids) > 1
RETURN core, tokens, type, ids
ORDER BY core, coalesce(type, ''), coalesce(gender, '')
