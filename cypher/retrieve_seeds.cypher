// retrieve_seeds: the $k entities whose text embedding is closest to the query's (vector index).
// Cosine in [-1, 1] (the index scores (1 + cos) / 2). Every retrieval mode starts here. The index
// is approximate (HNSW): asked for one neighbour it may miss the best, so it is asked for at least
// 20 and the best $k are kept.
// Params: $vector list<float>, $k int.
CALL db.index.vector.queryNodes('entity_embedding', CASE WHEN $k < 20 THEN 20 ELSE $k END, $vector) YIELD node, score
RETURN node.id AS id, 2 * score - 1 AS cosine
ORDER BY cosine DESC, id
LIMIT $k
