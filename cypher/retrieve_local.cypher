// retrieve_local: entities within $hops RELATED hops of the seeds (LightRAG / GraphRAG-local style),
// ranked by how many seeds reach them, then by the weight of their relations to the seeds.
// RELATED holds active triples only, so filtered ones never lead anywhere.
// Params: $seeds list<string>, $hops int, $limit int.
MATCH (s:Entity) WHERE s.id IN $seeds
CALL apoc.path.subgraphNodes(s, {relationshipFilter: 'RELATED', maxLevel: $hops, limit: $limit}) YIELD node
WITH node, count(DISTINCT s) AS reached
WHERE NOT node.id IN $seeds
RETURN node.id AS id, reached,
       reduce(w = 0.0, r IN [(node)-[r:RELATED]-(x:Entity) WHERE x.id IN $seeds | r] | w + coalesce(r.weight, 1.0)) AS weight
ORDER BY reached DESC, weight DESC, id
LIMIT $limit
