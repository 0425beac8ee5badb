// resolve_embed_fastrp: structural embedding of the topology alone, written to Entity.fastrp (vector index
// entity_fastrp). Seeded and single-threaded, so reruns give the same vectors.
// Params: $graph string, $dimensions int, $seed int.
CALL gds.fastRP.write($graph, {embeddingDimension: $dimensions, randomSeed: $seed, concurrency: 1,
                               iterationWeights: [0.0, 1.0, 1.0], writeProperty: 'fastrp'})
YIELD nodePropertiesWritten
RETURN nodePropertiesWritten AS written
