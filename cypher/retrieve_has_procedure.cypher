// retrieve_has_procedure: one row when the server has the procedure $procedure (a kgres plugin older
// than it, or none at all, returns no row, and retrieval uses the plain Cypher files).
// Params: $procedure string.
SHOW PROCEDURES YIELD name WHERE name = $procedure
RETURN name
