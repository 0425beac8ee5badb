// resolve_block_semantic_vectors: these entities' text embeddings and their keys (exact nearest
// neighbours are computed from them in Python; see block.py), as bytes (kgres.vector.pack).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, kgres.vector.pack(e.embedding) AS embedding, e.embedding_key AS key
