// resolve_normalize_ids: resolve_normalize_page for the Entities of $ids (an incremental resolve).
// Params: $ids list<string>, $legal as in resolve_normalize_page. Returns one row, page: a list of {id, name, type}.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_stamp IS NULL OR e.key_stamp <> e.name + '|' + coalesce(e.type, '') + '|' + $legal
WITH e ORDER BY e.id
RETURN collect({id: e.id, name: e.name, type: e.type}) AS page
