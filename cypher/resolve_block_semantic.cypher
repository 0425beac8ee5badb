// resolve_block_semantic: pair each Entity in $ids with its $k nearest neighbours by text embedding
// (vector index entity_embedding) whose cosine is at least $min_cosine. The index scores cosine
// as (1 + cos) / 2, hence the conversion.
// Returns each pair once, smaller id first (kgres.resolve.block collects and writes them).
// Params: $ids list<string>, $k int, $min_cosine float.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
CALL (e) {
  CALL db.index.vector.queryNodes('entity_embedding', $k + 1, e.embedding) YIELD node, score
  WHERE node <> e AND score >= ($min_cosine + 1.0) / 2.0
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
RETURN a.id AS a, b.id AS b
