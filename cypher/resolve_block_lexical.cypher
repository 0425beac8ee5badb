// resolve_block_lexical: pair each Entity in $ids with its $k best full-text neighbours (index entity_name
// over name and aliases; rare shared words score highest, BM25), best score first, ties by id. e.search_key
// is the Lucene-escaped core tokens written by normalize. Types are not filtered here: score decides what
// a type clash means. Returns one row per entity with its partners (kgres.resolve.block orders and
// deduplicates the pairs): one row per pair cost the driver a message each (10k cesi entities: 1.5 s of
// 4 s for exact pairs).
// $expand spells out typo-tolerant terms ("+portland~1" -> "+(portland portlnd)", kgres.resolve.fuzzy):
// Lucene walks its whole term dictionary for each; a term it does not name stays as it is.
// $fetch: the index returns its $fetch best hits only (null: every hit). Ordering every hit by id read
// the id of thousands of entities that share one common word (1M generated mentions: most of the
// blocking stage); so kgres.resolve.block asks for a few best and checks, with fetched, lowest and kth,
// that no entity tied with the k-th could have been left out (else it asks again for more).
// Params: $ids list<string>, $k int, $expand map<string, string>, $fetch int or null.
// Returns: id, others (ids), fetched (hits the index returned), lowest (their lowest score), kth (the
// lowest score among others).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.search_key IS NOT NULL AND e.search_key <> ''
CALL (e) {
  CALL db.index.fulltext.queryNodes('entity_name', reduce(q = '', w IN split(e.search_key, ' ') |
                                     q + ' ' + coalesce($expand[w], w)),
                                    CASE WHEN $fetch IS NULL THEN {} ELSE {limit: $fetch} END) YIELD node, score
  WITH collect({node: node, score: score}) AS hits
  CALL (hits, e) {
    UNWIND hits AS h
    WITH h WHERE h.node <> e AND h.node:Entity
    WITH h ORDER BY h.score DESC, h.node.id LIMIT $k
    RETURN collect(h.node.id) AS others, min(h.score) AS kth
  }
  RETURN size(hits) AS fetched, apoc.coll.min([h IN hits | h.score]) AS lowest, others, kth
}
RETURN e.id AS id, others, fetched, lowest, kth
