// resolve_block_codes: the names (name and aliases) of every entity whose name carries a number, for
// code blocking (kgres.resolve.block reads the model codes they write). Streamed in id order.
// Params: none.
MATCH (e:Entity)
WHERE any(n IN coalesce(e.key_numbers, []) WHERE n =~ '.*[0-9].*')
RETURN e.id AS id, e.name AS name, e.aliases AS aliases
ORDER BY id
