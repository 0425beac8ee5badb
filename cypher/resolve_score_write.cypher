// resolve_score_write: store score, band and signals on CANDIDATE pairs of a run.
// Each row names its relationship by the elementId resolve_score_page read in the same run; the run
// and both ends are checked after the seek, so a row never writes to another pair. Matched as a
// pattern between two bound-by-id entities, the planner seeked an end by id and expanded its
// CANDIDATE edges of every run (89k pairs after nine passes at 20k mentions: 8-11 s, now 3 s). The
// seek is a subquery of its own, as in resolve_score_page.
// Params: $rows list<{rel, a, b, score, band, match_weight (null for the rule scorer), name_rule, cannot_link,
//         signals_json}>, $run_id string. name_rule and cannot_link repeat signals_json's, for clustering to read.
UNWIND $rows AS row
CALL (row) {
  MATCH ()-[c:CANDIDATE]->()
  WHERE elementId(c) = row.rel
  RETURN c
}
WITH c, row
WHERE c.run_id = $run_id AND startNode(c).id = row.a AND endNode(c).id = row.b
SET c.score = row.score, c.band = row.band, c.match_weight = row.match_weight, c.name_rule = row.name_rule,
    c.cannot_link = row.cannot_link, c.signals_json = row.signals_json
