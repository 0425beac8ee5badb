// resolve_block_lexical: pair each Entity in $ids with its $k best full-text neighbours (index entity_name
// over name and aliases; rare shared words score highest, BM25). e.search_key is the Lucene-escaped
// core tokens written by normalize. Types are not filtered here: score decides what a type clash means.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// Params: $ids list<string>, $k int.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.search_key IS NOT NULL AND e.search_key <> ''
CALL (e) {
  CALL db.index.fulltext.queryNodes('entity_name', e.search_key) YIELD node, score
  WHERE node <> e AND node:Entity
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
RETURN e.id AS id, collect(o.id) AS others
