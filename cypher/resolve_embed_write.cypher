// resolve_embed_write: store text embeddings (as a float vector, indexed by entity_embedding) and the key
// of the text and model they came from.
// Params: $rows list<{id, v: list<float>, key}>.
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
CALL db.create.setNodeVectorProperty(e, 'embedding', row.v)
SET e.embedding_key = row.key
