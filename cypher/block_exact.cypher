// block_exact: pair each Entity in $ids with others sharing its normalised core key (any type:
// one name typed two ways is a candidate). At most $k per entity. One CANDIDATE per pair and run,
// directed from the smaller id; `methods` lists every strategy that proposed it.
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL
CALL (e) {
  MATCH (o:Entity {key_core: e.key_core})
  WHERE o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
WITH CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
MERGE (a)-[c:CANDIDATE {run_id: $run_id}]->(b)
ON CREATE SET c.methods = []
SET c.methods = CASE WHEN 'exact' IN c.methods THEN c.methods ELSE c.methods + 'exact' END
