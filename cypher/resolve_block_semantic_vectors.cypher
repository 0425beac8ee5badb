// resolve_block_semantic_vectors: these entities' text embeddings and their keys (exact nearest
// neighbours are computed from them in Python; see block.py).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding, e.embedding_key AS key
