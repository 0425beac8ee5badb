// resolve_collapse_keys: groups of current Entities that share normalised key, type and gender (2+ members),
// the identical-name copies left by chunk-by-chunk extraction. Ordered, so groups are deterministic.
// Params: none.
MATCH (e:Entity)
WHERE e.key_core IS NOT NULL AND e.key_core <> ''
WITH e.key_core AS core, e.key_tokens AS tokens, e.norm_type AS type, e.key_gender AS gender, e.id AS id
ORDER BY id
WITH core, type, gender, head(collect(tokens)) AS tokens, collect(id) AS ids
WHERE size(ids) > 1
RETURN core, tokens, type, ids
ORDER BY core, coalesce(type, ''), coalesce(gender, '')
