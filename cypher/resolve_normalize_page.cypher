// resolve_normalize_page: up to $limit Entities after id $after whose keys are missing or stale (name, type or
// settings changed), in id order.
// Params: $after string ('' for the first page: the id of the last row of the page before), $limit int,
// $legal '0'|'1' (strip legal suffixes) followed by kgres.normalize.KEY_VERSION.
// Returns one row, page: a list of {id, name, type} (one record a page: a record an entity cost the driver a
// message each, 100k entities: 6 s).
// The stamp must equal kgres.normalize._stamp: name|type|legal. Each page starts where the last one ended (a
// range seek on the entity_id constraint's index), so the graph is read once however many pages it takes.
MATCH (e:Entity)
WHERE e.id > $after
  AND (e.key_stamp IS NULL OR e.key_stamp <> e.name + '|' + coalesce(e.type, '') + '|' + $legal)
WITH e ORDER BY e.id LIMIT $limit
RETURN collect({id: e.id, name: e.name, type: e.type}) AS page
