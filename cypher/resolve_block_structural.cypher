// resolve_block_structural: pairs of entities sharing neighbours (GDS nodeSimilarity, Jaccard over RELATED
// neighbours), the $k most similar per entity with similarity at least $cutoff; with $focus, only
// pairs touching a focus entity.
// Returns each pair once, smaller id first (kgres.resolve.block collects and writes them).
// Params: $graph string, $k int, $cutoff float, $focus list<string> or null.
CALL gds.nodeSimilarity.stream($graph, {topK: $k, similarityCutoff: $cutoff, degreeCutoff: 2, concurrency: 1})
YIELD node1, node2
WITH gds.util.asNode(node1) AS x, gds.util.asNode(node2) AS y
WHERE x.id < y.id AND ($focus IS NULL OR x.id IN $focus OR y.id IN $focus)
WITH DISTINCT x AS a, y AS b
RETURN a.id AS a, b.id AS b
