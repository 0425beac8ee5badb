// resolve_embed_context_stream: resolve_embed_context's embeddings, streamed with entity ids instead of
// written (an incremental resolve writes those of the entities around the new ones only).
// Params: $graph string, $dimensions int, $seed int.
CALL gds.fastRP.stream($graph, {embeddingDimension: $dimensions, randomSeed: $seed, concurrency: 1,
                                featureProperties: ['embedding'], propertyRatio: 1.0, nodeSelfInfluence: 0.0,
                                iterationWeights: [1.0]})
YIELD nodeId, embedding
RETURN gds.util.asNode(nodeId).id AS id, embedding
