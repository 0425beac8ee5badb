// resolve_block_semantic: pair each Entity in $ids with its $k nearest neighbours by text embedding
// (vector index entity_embedding) whose cosine is at least $min_cosine. The index scores cosine
// as (1 + cos) / 2, hence the conversion.
// Params: $ids list<string>, $k int, $min_cosine float, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
CALL (e) {
  CALL db.index.vector.queryNodes('entity_embedding', $k + 1, e.embedding) YIELD node, score
  WHERE node <> e AND score >= ($min_cosine + 1.0) / 2.0
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: ['semantic']}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT 'semantic' IN o.methods] | SET old.methods = old.methods + 'semantic')
}
