// resolve_block_lexical_reindex: rebuild the entity_name full-text index from the store before lexical
// blocking. Lucene counts a replaced or deleted document in its BM25 statistics until a background
// segment merge drops it, and when that happens depends on timing; so the entities that collapse and
// earlier passes retired made the same live entities score differently from run to run, and the k
// best matches (the candidate pairs) differed. A freshly populated index holds only live entities.
// The definition must stay the one in schema.cypher.
// Params: $timeout_s int.
DROP INDEX entity_name IF EXISTS;
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.aliases];
CALL db.awaitIndex('entity_name', $timeout_s);
