// ingest_chunks: upsert Chunks and link each to its Document (a stub Document if none was given).
// Params: $rows list<{id, key, document_id, index, text}>, $source string, $run_id string (kept on what
// this creates, so kgres rollback can remove an import).
UNWIND $rows AS row
MERGE (c:Chunk {id: row.id})
ON CREATE SET c.text = row.text, c.index = row.index, c.document_id = row.document_id,
              c.source_system = $source, c.source_key = row.key, c.ingest_run_id = $run_id
WITH c, row WHERE row.document_id IS NOT NULL
MERGE (d:Document {id: row.document_id})
ON CREATE SET d.source_system = $source, d.source_key = row.document_key, d.ingest_run_id = $run_id
MERGE (c)-[:PART_OF]->(d)
