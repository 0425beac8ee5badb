// console_sides: what the pair and entity views show of Entities: the entity, up to 20 of its mentions
// with their first passage, and its strongest relations.
// Params: $ids list<string> (entity ids).
MATCH (e:Entity) WHERE e.id IN $ids
CALL (e) {
  MATCH (m:Mention)-[r:REFERS_TO]->(e)
  WITH m, r ORDER BY m.id LIMIT 20
  OPTIONAL CALL (m) {
    MATCH (m)-[:IN_CHUNK]->(ch:Chunk)
    RETURN ch ORDER BY ch.id LIMIT 1
  }
  RETURN collect(m {.id, .name, .type, .description, .source_system, .source_key, .span_start, .span_end,
                    .attributes_json, method: r.method, confidence: r.confidence, run_id: r.run_id,
                    chunk_id: ch.id, text: ch.text}) AS mentions
}
CALL (e) {
  OPTIONAL MATCH (e)-[r:RELATED]-(o:Entity)
  WITH r, o ORDER BY r.weight DESC, o.id LIMIT 25
  RETURN collect(CASE WHEN o IS NULL THEN NULL
                 ELSE {predicate: r.predicate, other_id: o.id, other_name: o.name, outgoing: startNode(r) = e} END)
         AS relations
}
RETURN e {.id, .name, .type, .description, .aliases, .mention_count} AS entity, mentions, relations
