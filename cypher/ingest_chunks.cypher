// ingest_chunks: upsert Chunks and link each to its Document (a stub Document if none was given).
// Params: $rows list<{id, key, document_id, index, text}>, $source string.
UNWIND $rows AS row
MERGE (c:Chunk {id: row.id})
ON CREATE SET c.text = row.text, c.index = row.index, c.document_id = row.document_id,
              c.source_system = $source, c.source_key = row.key
WITH c, row WHERE row.document_id IS NOT NULL
MERGE (d:Document {id: row.document_id})
ON CREATE SET d.source_system = $source, d.source_key = row.document_key
MERGE (c)-[:PART_OF]->(d)
