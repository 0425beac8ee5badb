// resolve_block_semantic: pair each Entity in $ids with its $k nearest neighbours by text embedding
// (vector index entity_embedding) whose cosine is at least $min_cosine. The index scores cosine
// as (1 + cos) / 2, hence the conversion.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// Params: $ids list<string>, $k int, $min_cosine float.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
CALL (e) {
  CALL db.index.vector.queryNodes('entity_embedding', $k + 1, e.embedding) YIELD node, score
  WHERE node <> e AND score >= ($min_cosine + 1.0) / 2.0
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
RETURN e.id AS id, collect(o.id) AS others
