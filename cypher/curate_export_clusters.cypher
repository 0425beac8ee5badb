// curate_export_clusters: one row per current Entity with the input ids of its mentions.
// Params: none. Streamed in entity id order.
MATCH (e:Entity)
CALL (e) {
  MATCH (m:Mention)-[:REFERS_TO]->(e)
  RETURN collect(m.source_key) AS keys, collect(m.source_system) AS sources
}
RETURN e.id AS entity_id, e.name AS name, e.type AS type, keys AS mention_ids, sources
ORDER BY e.id
