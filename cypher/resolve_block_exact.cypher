// resolve_block_exact: pair each Entity in $ids with others sharing its normalised core key (any type:
// one name typed two ways is a candidate). At most $k per entity.
// Returns each pair once, smaller id first (kgres.resolve.block collects and writes them).
// Params: $ids list<string>, $k int.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL
CALL (e) {
  MATCH (o:Entity {key_core: e.key_core})
  WHERE o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
RETURN a.id AS a, b.id AS b
