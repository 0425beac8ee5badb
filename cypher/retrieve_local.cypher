// retrieve_local: the $k seed entities closest to the query vector (as retrieve_seeds), then the
// entities within $hops RELATED hops of them (LightRAG / GraphRAG-local style), ranked by how many
// seeds reach them, then by the weight of their relations to the seeds.
// RELATED holds active triples only, so filtered ones never lead anywhere.
// Returns the ranked entity ids and their weights (a seed: its cosine; an expanded entity: the
// share of seeds that reach it), ready for retrieve_context, and the seeds with their cosine.
// Params: $vector list<float>, $k int, $hops int, $limit int (expanded entities, besides the seeds).
CALL db.index.vector.queryNodes('entity_embedding', CASE WHEN $k < 20 THEN 20 ELSE $k END, $vector) YIELD node, score
WITH node AS s, 2 * score - 1 AS cosine
ORDER BY cosine DESC, s.id
LIMIT $k
WITH collect(s) AS seeds, collect({id: s.id, cosine: cosine}) AS ranked
CALL (seeds) {
  UNWIND seeds AS s
  CALL apoc.path.subgraphNodes(s, {relationshipFilter: 'RELATED', maxLevel: $hops, limit: CASE WHEN $limit < 1 THEN 1 ELSE $limit END}) YIELD node
  WITH node, count(DISTINCT s) AS reached
  WHERE NOT node IN seeds
  WITH node, reached,
       reduce(w = 0.0, r IN [(node)-[r:RELATED]-(x) WHERE x IN seeds | r] | w + coalesce(r.weight, 1.0)) AS weight
  ORDER BY reached DESC, weight DESC, node.id
  LIMIT $limit
  RETURN collect({id: node.id, reached: reached}) AS expanded
}
RETURN [s IN ranked | s.id] + [x IN expanded | x.id] AS ids,
       [s IN ranked | CASE WHEN s.cosine > 0 THEN s.cosine ELSE 0.0 END]
         + [x IN expanded | toFloat(x.reached) / (size(ranked) + 1)] AS weights,
       ranked AS seeds
