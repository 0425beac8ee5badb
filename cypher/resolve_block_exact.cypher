// resolve_block_exact: pair each Entity in $ids with others sharing its normalised core key (any type:
// one name typed two ways is a candidate). At most $k per entity.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// Params: $ids list<string>, $k int.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL
CALL (e) {
  MATCH (o:Entity {key_core: e.key_core})
  WHERE o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
RETURN e.id AS id, collect(o.id) AS others
