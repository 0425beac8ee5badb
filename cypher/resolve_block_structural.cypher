// resolve_block_structural: pairs of entities sharing neighbours (GDS nodeSimilarity, Jaccard over RELATED
// neighbours), the $k most similar per entity with similarity at least $cutoff; with $focus, only
// pairs touching a focus entity.
// Params: $graph string, $k int, $cutoff float, $focus list<string> or null, $run_id string.
CALL gds.nodeSimilarity.stream($graph, {topK: $k, similarityCutoff: $cutoff, degreeCutoff: 2, concurrency: 1})
YIELD node1, node2
WITH gds.util.asNode(node1) AS x, gds.util.asNode(node2) AS y
WHERE x.id < y.id AND ($focus IS NULL OR x.id IN $focus OR y.id IN $focus)
WITH DISTINCT x AS a, y AS b
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: ['structural']}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT 'structural' IN o.methods] | SET old.methods = old.methods + 'structural')
}
