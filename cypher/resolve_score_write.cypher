// resolve_score_write: store score, band and signals on CANDIDATE pairs of a run.
// The hints keep the planner off the run_id relationship index (a scan of the whole run per row).
// Params: $rows list<{a, b, score, band, match_weight (null for the rule scorer), name_rule, cannot_link,
//         signals_json}>, $run_id string. name_rule and cannot_link repeat signals_json's, for clustering to read.
UNWIND $rows AS row
MATCH (a:Entity {id: row.a})-[c:CANDIDATE]->(b:Entity {id: row.b})
USING INDEX a:Entity(id)
USING INDEX b:Entity(id)
WHERE c.run_id = $run_id
SET c.score = row.score, c.band = row.band, c.match_weight = row.match_weight, c.name_rule = row.name_rule,
    c.cannot_link = row.cannot_link, c.signals_json = row.signals_json
