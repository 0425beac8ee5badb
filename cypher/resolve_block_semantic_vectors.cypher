// resolve_block_semantic_vectors: every Entity's text embedding, in id order (exact nearest
// neighbours are computed from them in Python; see block.py).
// Params: none.
MATCH (e:Entity)
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding
ORDER BY id
