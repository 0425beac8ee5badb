// retrieve_context_procedure: retrieve_context.cypher's result, computed by the kgres plugin's
// kgres.retrieve.context through the kernel API (the Cypher file spends most of its time in per-row
// runtime overhead). Retrieval uses this file when the server has the procedure.
// Params: as retrieve_context ($ids, $weights, $relations, $chunks, $chars); the first line binds
// the inputs (kgres.db.cypher.chain).
WITH $ids AS ids, $weights AS weights
CALL kgres.retrieve.context(ids, weights, $relations, $chunks, $chars) YIELD entities, relations, chunks
RETURN entities, relations, chunks
