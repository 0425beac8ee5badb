// components_wcc: weakly connected components of a projection: count, largest size, node count.
// Params: $graph string.
CALL gds.wcc.stream($graph, {concurrency: 2}) YIELD componentId
WITH componentId, count(*) AS size
RETURN count(*) AS components, max(size) AS largest, sum(size) AS nodes
