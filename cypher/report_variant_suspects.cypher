// report_variant_suspects: entities with a long description but a single mention, the signature
// of a variant spelling an extractor described at length once.
// Params: $limit int, $min_chars int.
MATCH (e:Entity)
WHERE coalesce(e.mention_count, 1) = 1 AND size(coalesce(e.description, '')) >= $min_chars
RETURN e.id AS id, e.name AS name, size(e.description) AS description_chars
ORDER BY description_chars DESC, id
LIMIT $limit
