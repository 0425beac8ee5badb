// resolve_block_kmeans_assign: k-means over text embeddings (seeded); each entity's cluster becomes its
// semantic block, Entity.kmeans_block.
// Params: $graph string (projected with embeddings), $k int, $seed int.
CALL gds.kmeans.stream($graph, {nodeProperty: 'embedding', k: $k, randomSeed: $seed, concurrency: 1})
YIELD nodeId, communityId
WITH gds.util.asNode(nodeId) AS e, communityId
SET e.kmeans_block = communityId
RETURN count(*) AS assigned
