// resolve_block_value_carriers: for each blocking value an increment's entities carry (an attribute
// value "a:<key>=<folded value>" or a model code "c:<code>", as kgres.resolve.block.mention_values
// writes them on mentions), the entities whose mentions carry it, from the mention_block_values
// index: at most $limit of them (a value more entities carry blocks nothing, however many).
// The index is waited for first: one created by schema init may still be populating.
// Params: $values list<{value, query}> (query: the value as a quoted Lucene term), $limit int,
//         $timeout_s int.
CALL db.awaitIndex('mention_block_values', $timeout_s)
UNWIND $values AS v
CALL (v) {
  CALL db.index.fulltext.queryNodes('mention_block_values', v.query) YIELD node
  MATCH (node)-[:REFERS_TO]->(e:Entity)
  WITH DISTINCT e.id AS id
  LIMIT $limit
  RETURN collect(id) AS ids
}
RETURN v.value AS value, ids
