// resolve_block_structural_walk: structural blocking for the entities in $ids, walked from each through
// its RELATED neighbours (a small focus, an increment's new entities, or a page of a graph too large for
// GDS nodeSimilarity, resolve_block_structural: kgres.resolve.block.STRUCTURAL_GDS_MAX): the entities sharing RELATED
// neighbours with each, Jaccard over distinct neighbours at least $cutoff, both with at least two
// neighbours (as GDS nodeSimilarity's degreeCutoff 2), the $k most similar per entity, ties by id.
// Neighbours with more than $max_degree neighbours of their own (hubs) are not walked through: they
// say little about identity.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// Params: $ids list<string>, $k int, $cutoff float, $max_degree int.
UNWIND $ids AS id
MATCH (x:Entity {id: id})
WITH x, apoc.coll.toSet([(x)-[:RELATED]-(n:Entity) | n]) AS nx
WHERE size(nx) >= 2
CALL (x, nx) {
  UNWIND nx AS n
  WITH n WHERE COUNT { (n)-[:RELATED]-() } <= $max_degree
  MATCH (n)-[:RELATED]-(y:Entity)
  WHERE y <> x
  WITH y, count(DISTINCT n) AS shared
  // Jaccard >= $cutoff needs ny <= shared * (1 + $cutoff) / $cutoff - size(nx), and ny is at least
  // max(shared, 2): a y that cannot pass is dropped before its neighbours are counted (most of them:
  // those sharing one neighbour with an x of two or more). The bound is loosened by 1e-9, so that no
  // pair the exact test keeps is lost to rounding. 147k entities (1M generated mentions), pages of
  // 1,000: 16-43 s a page before, 0.5-0.9 s with it (the same pairs); the page of the largest
  // entities 22 s; the whole walk about 6 min, from an hour or more.
  WHERE shared * (1 + $cutoff) >= $cutoff * (size(nx) + CASE WHEN shared > 2 THEN shared ELSE 2 END) - 1e-9
  WITH y, shared, size(apoc.coll.toSet([(y)-[:RELATED]-(m:Entity) | m])) AS ny
  WHERE ny >= 2
  WITH y, toFloat(shared) / (size(nx) + ny - shared) AS jaccard
  WHERE jaccard >= $cutoff
  RETURN y ORDER BY jaccard DESC, y.id LIMIT $k
}
RETURN x.id AS id, collect(y.id) AS others
