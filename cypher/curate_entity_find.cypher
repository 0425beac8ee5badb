// curate_entity_find: current Entities with this id, or this exact name (case-insensitive).
// Params: $q string.
MATCH (e:Entity)
WHERE e.id = $q OR toLower(e.name) = toLower($q)
RETURN e.id AS id, e.name AS name, e.mention_count AS mention_count, e.key_core AS key_core
ORDER BY e.id
