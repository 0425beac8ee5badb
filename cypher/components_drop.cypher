// components_drop: drop a GDS projection if it exists.
// Params: $graph string.
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName
