// db_entity_ids: one page of Entity ids in id order, after $after (keyset pagination), collected into
// one list (kgres.db.Database.collected).
// Params: $after string ('' for the first page), $limit int.
MATCH (e:Entity)
WHERE e.id > $after
WITH e.id AS id
ORDER BY id
LIMIT $limit
RETURN collect(id) AS rows
