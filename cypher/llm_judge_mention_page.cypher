// llm_judge_mention_page: mentions a resolution moved into another entity and nobody checked one by one
// yet, with their chunk text (the mention-level judge picks the ambiguous short forms among them).
// Params: $after string (page by mention id), $limit int, $chars int.
MATCH (m:Mention)-[r:REFERS_TO]->(e:Entity)
WHERE m.id > $after AND r.previous_entity_id IS NOT NULL AND m.relink_verdict IS NULL
WITH m, e ORDER BY m.id LIMIT $limit
RETURN m.id AS id, m.name AS name, m.type AS type, e.id AS entity_id,
       [(m)-[:IN_CHUNK]->(c:Chunk) | left(c.text, $chars)][0..2] AS excerpts
