// resolve_block_lexical: pair each Entity in $ids with its $k best full-text neighbours (index entity_name
// over name and aliases; rare shared words score highest, BM25). e.search_key is the Lucene-escaped
// core tokens written by normalize. Types are not filtered here: score decides what a type clash means.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// $expand spells out typo-tolerant terms ("+portland~1" -> "+(portland portlnd)", kgres.resolve.fuzzy):
// Lucene walks its whole term dictionary for each; a term it does not name stays as it is.
// Params: $ids list<string>, $k int, $expand map<string, string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.search_key IS NOT NULL AND e.search_key <> ''
CALL (e) {
  CALL db.index.fulltext.queryNodes('entity_name', reduce(q = '', w IN split(e.search_key, ' ') |
                                     q + ' ' + coalesce($expand[w], w))) YIELD node, score
  WHERE node <> e AND node:Entity
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
RETURN e.id AS id, collect(o.id) AS others
