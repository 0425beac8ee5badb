// resolve_block_values_missing: up to $limit Mentions after id $after without block_values (imported
// before kgres wrote them), in id order, with what kgres.resolve.block.mention_values reads.
// Params: $after string ('' for the first page), $limit int.
// Returns one row, page: a list of {id, name, attributes_json}.
MATCH (m:Mention)
WHERE m.id > $after AND m.block_values IS NULL
WITH m ORDER BY m.id LIMIT $limit
RETURN collect({id: m.id, name: m.name, attributes_json: m.attributes_json}) AS page
