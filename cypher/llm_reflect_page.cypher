// llm_reflect_page: up to $limit active triples not yet reflected (or all, with $all), after $after in
// id order, with what the reflection prompt shows: both ends' names, types and descriptions, the
// triple's predicate and description, and an excerpt of its first chunk.
// Params: $after string, $limit int, $all bool, $chars int.
MATCH (s:Mention)-[t:RELATES]->(o:Mention)
WHERE t.id > $after AND t.status = 'active' AND ($all OR t.reflection_score IS NULL)
WITH s, t, o ORDER BY t.id LIMIT $limit
OPTIONAL MATCH (c:Chunk {id: head(coalesce(t.chunk_ids, []))})
RETURN t.id AS id, t.predicate AS predicate, coalesce(t.description, '') AS description,
       s.name AS subject, s.type AS subject_type, coalesce(s.description, '') AS subject_description,
       o.name AS object, o.type AS object_type, coalesce(o.description, '') AS object_description,
       left(coalesce(c.text, ''), $chars) AS excerpt
