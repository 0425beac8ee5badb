// retrieve_community: the $k communities whose summary embedding is closest to the query's
// (GraphRAG-global style), each with its summary and its $members best-connected entities.
// Params: $vector list<float>, $k int, $members int.
CALL db.index.vector.queryNodes('community_embedding', $k, $vector) YIELD node, score
WITH node AS k, 2 * score - 1 AS cosine
CALL (k) {
  MATCH (e:Entity)-[:IN_COMMUNITY]->(k)
  WITH e ORDER BY COUNT { (e)-[:RELATED]-() } DESC, e.id LIMIT $members
  RETURN collect(e.id) AS members
}
RETURN k.id AS id, k.title AS title, k.summary AS summary, k.summarized_by AS summarized_by, k.size AS size,
       cosine, members
ORDER BY cosine DESC, id
