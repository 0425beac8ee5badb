// block_structural: pairs of entities sharing neighbours (GDS nodeSimilarity, Jaccard over RELATED
// neighbours), the $k most similar per entity with similarity at least $cutoff; with $focus, only
// pairs touching a focus entity.
// Params: $graph string, $k int, $cutoff float, $focus list<string> or null, $run_id string.
CALL gds.nodeSimilarity.stream($graph, {topK: $k, similarityCutoff: $cutoff, degreeCutoff: 2, concurrency: 1})
YIELD node1, node2
WITH gds.util.asNode(node1) AS x, gds.util.asNode(node2) AS y
WHERE x.id < y.id AND ($focus IS NULL OR x.id IN $focus OR y.id IN $focus)
WITH x AS a, y AS b
MERGE (a)-[c:CANDIDATE {run_id: $run_id}]->(b)
ON CREATE SET c.methods = []
SET c.methods = CASE WHEN 'structural' IN c.methods THEN c.methods ELSE c.methods + 'structural' END
