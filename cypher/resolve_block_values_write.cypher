// resolve_block_values_write: set the blocking values of Mentions (kgres.resolve.block.mention_values).
// Params: $rows list<{id, values}>.
UNWIND $rows AS row
MATCH (m:Mention {id: row.id})
SET m.block_values = row.values
