// report_multi_type: one normalised name carried by entities of several types ("Baker Street" as
// GEO and ORGANIZATION), most entities first.
// Params: $limit int.
MATCH (e:Entity)
WHERE e.key_core IS NOT NULL
WITH e.key_core AS key, collect(DISTINCT coalesce(e.norm_type, '(none)')) AS types, collect(e.name) AS names
WHERE size(types) > 1
RETURN key, types, names[0..5] AS names, size(names) AS entities
ORDER BY entities DESC, key
LIMIT $limit
