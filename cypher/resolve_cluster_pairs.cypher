// resolve_cluster_pairs: the auto-band candidate pairs of a run (the search space of clustering).
// Params: $run_id string. Streamed: bounded by k pairs per entity.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id, band: 'auto'}]->(b:Entity)
USING INDEX c:CANDIDATE(run_id)
RETURN a.id AS a, b.id AS b, c.score AS score
ORDER BY a, b
