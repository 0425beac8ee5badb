// resolve_block_kmeans_blocks: the k-means blocks (Entity.kmeans_block, set by resolve_block_kmeans_assign) and
// their sizes, in block order.
// Params: none.
MATCH (e:Entity)
WHERE e.kmeans_block IS NOT NULL AND e.embedding IS NOT NULL
RETURN e.kmeans_block AS block, count(*) AS size
ORDER BY block
