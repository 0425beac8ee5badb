// resolve_block_codes_of: resolve_block_codes for the entities of $ids only (an increment's focus):
// those whose name carries a number, with their names.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE any(n IN coalesce(e.key_numbers, []) WHERE n =~ '.*[0-9].*')
RETURN e.id AS id, e.name AS name, e.aliases AS aliases
ORDER BY id
