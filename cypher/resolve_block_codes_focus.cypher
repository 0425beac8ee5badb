// resolve_block_codes_focus: how many of the entities in $ids carry a number in their name (as
// resolve_block_codes reads them). Code blocking pairs only those, so with none it skips reading
// every entity's.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE any(n IN coalesce(e.key_numbers, []) WHERE n =~ '.*[0-9].*')
RETURN count(e) AS carrying
