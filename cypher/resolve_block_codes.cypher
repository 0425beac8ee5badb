// resolve_block_codes: every entity whose name carries a number with letters (key_numbers as
// kgres.resolve.normalize.number_facts spells them: a model code "dmcfx777", a measure "72mp"), for
// code blocking (kgres.resolve.block keeps the codes). Streamed in id order.
// Params: none.
MATCH (e:Entity)
WHERE any(n IN coalesce(e.key_numbers, []) WHERE n =~ '.*[0-9].*' AND n =~ '.*[^0-9].*')
RETURN e.id AS id, e.key_numbers AS numbers
ORDER BY id
