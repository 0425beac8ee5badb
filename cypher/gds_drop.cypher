// gds_drop: drop one GDS projection by name if it exists (kgres.db.gds.projection drops its own
// projections with it; retrieval drops its stale ones).
// Params: $graph string.
CALL gds.graph.drop($graph, false) YIELD graphName
RETURN graphName
