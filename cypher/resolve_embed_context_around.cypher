// resolve_embed_context_around: resolve_embed_context's embeddings on a projection around some entities
// (resolve_embed_project_around), set on the entities $ids only: the projection's outer ring (neighbours
// of neighbours) lacks its own other neighbours, so its vectors are not theirs. A zero vector (no
// neighbour embedded) removes the property, as resolve_embed_clear_isolated does. Computed and set in
// the server: streamed to the client and written back, every vector crossed Bolt twice.
// Params: $graph string, $dimensions int, $seed int, $ids list<string>.
CALL gds.fastRP.stream($graph, {embeddingDimension: $dimensions, randomSeed: $seed, concurrency: 1,
                                featureProperties: ['embedding'], propertyRatio: 1.0, nodeSelfInfluence: 0.0,
                                iterationWeights: [1.0]})
YIELD nodeId, embedding
WITH gds.util.asNode(nodeId) AS e, embedding
WHERE e.id IN $ids
SET e.context_embedding = CASE WHEN any(x IN embedding WHERE x <> 0) THEN embedding END
RETURN count(*) AS written
