// resolve_block_exact_index: make sure the (key_core, id) index resolve_block_exact names exists (a graph
// initialised by an older kgres lacks it; its hint fails without it), and wait until it is online.
// The definition must stay the one in schema.cypher.
// Params: $timeout_s int.
CREATE INDEX entity_key_core_id IF NOT EXISTS FOR (e:Entity) ON (e.key_core, e.id);
CALL db.awaitIndex('entity_key_core_id', $timeout_s);
