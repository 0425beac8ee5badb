// resolve_score_create: write a run's scored candidate pairs, each once, as a CANDIDATE directed from
// the smaller id, with the strategies that proposed it and its outcome (kgres.resolve.score.stage.
// score_pairs: pairs blocked and scored in memory). The run has none of these pairs yet: score_pairs
// removes a resumed run's first.
// Params: $rows list<{a, b, methods, score, band, match_weight, name_rule, cannot_link, signals_json}>,
//         $run_id string.
UNWIND $rows AS row
MATCH (a:Entity {id: row.a})
MATCH (b:Entity {id: row.b})
CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: row.methods, score: row.score, band: row.band,
                        match_weight: row.match_weight, name_rule: row.name_rule, cannot_link: row.cannot_link,
                        signals_json: row.signals_json}]->(b)
