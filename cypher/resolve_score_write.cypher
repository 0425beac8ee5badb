// resolve_score_write: store score, band and signals on CANDIDATE pairs of a run.
// The hints keep the planner off the run_id relationship index (a scan of the whole run per row).
// Params: $rows list<{a, b, score, band, signals_json}>, $run_id string.
UNWIND $rows AS row
MATCH (a:Entity {id: row.a})-[c:CANDIDATE]->(b:Entity {id: row.b})
USING INDEX a:Entity(id)
USING INDEX b:Entity(id)
WHERE c.run_id = $run_id
SET c.score = row.score, c.band = row.band, c.signals_json = row.signals_json
