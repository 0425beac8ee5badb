// curate_explain_find: Entities matching an id exactly, or a name or alias case-insensitively.
// Params: $q string.
MATCH (e:Entity)
WHERE e.id = $q OR toLower(e.name) = toLower($q) OR any(a IN coalesce(e.aliases, []) WHERE toLower(a) = toLower($q))
RETURN e.id AS id, e.name AS name, e.type AS type, e.mention_count AS mention_count
ORDER BY e.mention_count DESC, e.id
LIMIT 20
