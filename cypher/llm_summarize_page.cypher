// llm_summarize_page: entities whose mentions' distinct descriptions together exceed $chars characters
// and that have no summary of exactly these descriptions yet (after $after, in id order).
// Params: $after string, $limit int, $chars int.
MATCH (e:Entity)
WHERE e.id > $after
CALL (e) {
  MATCH (m:Mention)-[:REFERS_TO]->(e)
  WHERE m.description IS NOT NULL AND m.description <> ''
  WITH DISTINCT m.description AS d ORDER BY d
  RETURN collect(d) AS descriptions
}
WITH e, descriptions, reduce(n = 0, d IN descriptions | n + size(d)) AS chars
WHERE chars > $chars
RETURN e.id AS id, e.name AS name, e.type AS type, descriptions, e.summary_key AS summary_key
ORDER BY e.id
LIMIT $limit
