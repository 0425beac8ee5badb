// block_kmeans: pair each Entity in $ids with the $k members of its k-means block closest to it by
// text embedding (Deg-Rag's semantic blocks, bounded per entity).
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.kmeans_block IS NOT NULL
CALL (e) {
  MATCH (o:Entity {kmeans_block: e.kmeans_block})
  WHERE o <> e
  WITH o, vector.similarity.cosine(e.embedding, o.embedding) AS s
  RETURN o ORDER BY s DESC, o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: ['kmeans']}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT 'kmeans' IN o.methods] | SET old.methods = old.methods + 'kmeans')
}
