// resolve_score_write: store score, band and signals on CANDIDATE pairs of a run.
// Each row names its relationship by the elementId resolve_score_page read in the same run (a seek,
// where matching a-[CANDIDATE]->b expands a's candidate edges of every run); the run and both ends
// are checked, so a row never writes to another pair.
// Params: $rows list<{rel, a, b, score, band, match_weight (null for the rule scorer), name_rule, cannot_link,
//         signals_json}>, $run_id string. name_rule and cannot_link repeat signals_json's, for clustering to read.
UNWIND $rows AS row
MATCH (a:Entity)-[c:CANDIDATE]->(b:Entity)
WHERE elementId(c) = row.rel AND c.run_id = $run_id AND a.id = row.a AND b.id = row.b
SET c.score = row.score, c.band = row.band, c.match_weight = row.match_weight, c.name_rule = row.name_rule,
    c.cannot_link = row.cannot_link, c.signals_json = row.signals_json
