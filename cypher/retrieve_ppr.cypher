// retrieve_ppr: personalized PageRank from the seed entities over the resolved graph (HippoRAG
// style, GDS sourceNodes); the projection holds active relations only.
// Params: $graph string (from retrieve_project), $seeds list<string>, $limit int, $damping float.
MATCH (s:Entity) WHERE s.id IN $seeds
WITH collect(s) AS sources
CALL gds.pageRank.stream($graph, {sourceNodes: sources, dampingFactor: $damping, maxIterations: 20,
                                  tolerance: 0.0001, concurrency: 1})
YIELD nodeId, score
WHERE score > 0
WITH nodeId, score ORDER BY score DESC, nodeId LIMIT $limit
WITH gds.util.asNode(nodeId) AS e, score
RETURN e.id AS id, score
