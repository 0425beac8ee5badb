// schema_reset_drop_projections: drop every in-memory GDS graph projection.
// Params: none. Returns the dropped names.
CALL gds.graph.list() YIELD graphName
CALL gds.graph.drop(graphName, false) YIELD graphName AS dropped
RETURN dropped
