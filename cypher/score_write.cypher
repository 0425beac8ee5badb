// score_write: store score, band and signals on CANDIDATE pairs of a run.
// Params: $rows list<{a, b, score, band, signals_json}>, $run_id string.
UNWIND $rows AS row
MATCH (:Entity {id: row.a})-[c:CANDIDATE {run_id: $run_id}]->(:Entity {id: row.b})
SET c.score = row.score, c.band = row.band, c.signals_json = row.signals_json
