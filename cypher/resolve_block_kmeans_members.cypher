// resolve_block_kmeans_members: one k-means block's entities with their text embeddings, in id order.
// Params: $block int.
MATCH (e:Entity {kmeans_block: $block})
WHERE e.embedding IS NOT NULL
RETURN e.id AS id, e.embedding AS embedding
ORDER BY id
