// resolve_cluster_scored: every scored candidate pair of a run, for one-pass clustering: the
// probability, the band, the name level, whether a constraint forbids it, whether its names said too
// little to merge (capped: it neither links nor vetoes), and (auto pairs only) the evidence kept on
// the merge. Streamed; bounded by k pairs per entity and strategy.
// Params: $run_id string.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id}]->(b:Entity)
USING INDEX c:CANDIDATE(run_id)
WHERE c.score IS NOT NULL
RETURN a.id AS a, b.id AS b, c.score AS p, c.band AS band, c.name_rule AS name_rule,
       c.cannot_link IS NOT NULL AS vetoed, coalesce(c.signals_json CONTAINS '"capped"', false) AS capped, CASE WHEN c.band = 'auto' THEN c.signals_json END AS signals
