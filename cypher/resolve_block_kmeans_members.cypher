// resolve_block_kmeans_members: one k-means block's entities with their text embeddings (as bytes:
// kgres.vector.pack), in id order.
// Params: $block int.
MATCH (e:Entity {kmeans_block: $block})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, kgres.vector.pack(e.embedding) AS embedding
ORDER BY id
