// resolve_block_exact: pair each Entity in $ids with others sharing its normalised core key (any type:
// one name typed two ways is a candidate). At most $k per entity.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
// The (key_core, id) index hands over each entity of a key with its id, so choosing the $k smallest
// reads no store: through the key_core index, every entity of a key read the id of every other (an
// ambiguous short form left to scoring keeps hundreds of copies; cesi-ambiguous before collapse, 18k
// entities: 4.9 s -> 2.2-2.6 s).
// resolve_block_exact_index makes sure the index exists.
// Params: $ids list<string>, $k int.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL
CALL (e) {
  MATCH (o:Entity)
  USING INDEX o:Entity(key_core, id)
  WHERE o.key_core = e.key_core AND o.id IS NOT NULL AND o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
RETURN e.id AS id, collect(o.id) AS others
