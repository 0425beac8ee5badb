// report_component_sizes: how many weakly connected components of a projection have each size.
// Params: $graph string.
CALL gds.wcc.stream($graph, {concurrency: 2}) YIELD componentId
WITH componentId, count(*) AS size
RETURN size, count(*) AS components
ORDER BY size
