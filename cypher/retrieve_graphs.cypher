// retrieve_graphs: the GDS projections kgres made for retrieval (to reuse the current one and drop stale ones).
// Params: $prefix string.
CALL gds.graph.list() YIELD graphName
WHERE graphName STARTS WITH $prefix
RETURN graphName AS name
