// resolve_normalize_page: up to $limit Entities whose keys are missing or stale (name, type or settings changed).
// Params: $limit int, $legal '0'|'1' (strip legal suffixes) followed by kgres.normalize.KEY_VERSION.
// Returns id, name, type.
// The stamp must equal kgres.normalize._stamp: name|type|legal. resolve_normalize_write stores it, so pages shrink.
MATCH (e:Entity)
WHERE e.key_stamp IS NULL OR e.key_stamp <> e.name + '|' + coalesce(e.type, '') + '|' + $legal
RETURN e.id AS id, e.name AS name, e.type AS type
ORDER BY e.id
LIMIT $limit
