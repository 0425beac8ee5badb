// ingest_mentions: upsert Mentions verbatim; give each mention that refers to nothing yet its own
// Entity (the unresolved state) with a recorded REFERS_TO decision and the alias trail that decision
// makes (as resolve_merge_refresh writes it); link mentions to their Chunks.
// A mention that already refers to an entity (resolved earlier) is left exactly as it is.
// Params: $rows list<{id, key, name, type, description, chunk_ids, document_ids, span_start, span_end,
//         attributes_json, block_values, inferred}> (block_values: kgres.resolve.block.mention_values),
//         $source string, $run_id string; $max_key int (the indexed norm_name is cut to it: a name of any
//         length is kept, its index key bounded).
UNWIND $rows AS row
MERGE (m:Mention {id: row.id})
ON CREATE SET m.name = row.name, m.norm_name = left(kgres.text.normName(row.name), $max_key), m.type = row.type,
              m.description = row.description, m.source_system = $source, m.source_key = row.key,
              m.chunk_ids = row.chunk_ids, m.document_ids = row.document_ids,
              m.span_start = row.span_start, m.span_end = row.span_end,
              m.attributes_json = row.attributes_json, m.inferred = row.inferred, m.ingest_run_id = $run_id,
              m.block_values = row.block_values
FOREACH (_ IN CASE WHEN EXISTS { (m)-[:REFERS_TO]->() } THEN [] ELSE [1] END |
  MERGE (e:Entity {id: 'ent:' + m.id})
  ON CREATE SET e.name = m.name, e.norm_name = m.norm_name, e.type = m.type,
                e.description = m.description, e.aliases = [m.name], e.mention_count = 1,
                e.trail_aliases = [m.name], e.trail_methods = ['ingest'], e.trail_run_ids = [$run_id],
                e.trail_confidences = [1.0], e.trail_mentions = [1]
  MERGE (m)-[r:REFERS_TO]->(e)
  ON CREATE SET r.confidence = 1.0, r.method = 'ingest', r.run_id = $run_id, r.decided_by = 'kgres ingest',
                r.decided_at = datetime(), r.evidence = 'unresolved: one entity per mention'
)
WITH m, row
CALL (m, row) {
  UNWIND row.chunk_ids AS chunk_id
  MATCH (c:Chunk {id: chunk_id})
  MERGE (m)-[:IN_CHUNK]->(c)
}
