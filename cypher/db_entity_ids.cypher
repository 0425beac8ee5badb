// db_entity_ids: one page of Entity ids in id order, after $after (keyset pagination).
// Params: $after string ('' for the first page), $limit int.
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id
ORDER BY e.id
LIMIT $limit
