// resolve_embed_reindex: rebuild the entity_embedding vector index from the store, at the size it has.
// A merge deletes entities, and Lucene keeps a deleted vector in its HNSW graphs until a segment
// merge that it schedules by itself; every search walks past them. On the 100k-mention synth graph
// (101k entities merged into 11.9k) the vector search for a question took 1.6-1.8 ms (server time,
// mean) before the rebuild and 0.8-0.9 ms after; 2.4 and 1.05 ms at 20k mentions.
// The CREATE must stay the one in schema.cypher.
// Params: $embedding_dimensions int, $timeout_s int.
DROP INDEX entity_embedding IF EXISTS;
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON e.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
CALL db.awaitIndex('entity_embedding', $timeout_s);
