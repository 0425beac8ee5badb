// resolve_embed_context: what an entity's neighbours talk about: FastRP whose only input is the neighbours'
// text embeddings (propertyRatio 1, no self influence, one hop) = a seeded random projection of the
// mean neighbour embedding. Written to Entity.context_embedding; zero for entities without neighbours.
// Params: $graph string, $dimensions int, $seed int.
CALL gds.fastRP.write($graph, {embeddingDimension: $dimensions, randomSeed: $seed, concurrency: 1,
                               featureProperties: ['embedding'], propertyRatio: 1.0, nodeSelfInfluence: 0.0,
                               iterationWeights: [1.0], writeProperty: 'context_embedding'})
YIELD nodePropertiesWritten
RETURN nodePropertiesWritten AS written
