// curate_explain_entity: the alias trail of one Entity: every mention with its source and the decision that
// put it here, plus the candidate pairs a run rejected or sent to review, and recorded NOT_SAME_AS.
// Params: $id string.
MATCH (e:Entity {id: $id})
CALL (e) {
  MATCH (m:Mention)-[r:REFERS_TO]->(e)
  RETURN collect(m {.id, .name, .type, .source_system, .source_key, .chunk_ids, .inferred,
                    confidence: r.confidence, method: r.method, run_id: r.run_id, decided_by: r.decided_by,
                    decided_at: toString(r.decided_at), evidence: r.evidence,
                    previous_entity_id: r.previous_entity_id}) AS mentions
}
CALL (e) {
  OPTIONAL MATCH (e)-[c:CANDIDATE]-(o:Entity)
  WHERE c.band IN ['review', 'reject']
  WITH c, o ORDER BY c.run_id, o.id  // not the edges' order: a score stage writes them from two transactions
  RETURN collect(CASE WHEN o IS NULL THEN NULL ELSE {other_id: o.id, other_name: o.name, band: c.band,
                 score: c.score, run_id: c.run_id, cannot_link: c.cannot_link,
                 signals: c.signals_json} END) AS pairs
}
CALL (e) {
  OPTIONAL MATCH (e)-[n:NOT_SAME_AS]-(o)
  RETURN collect(CASE WHEN o IS NULL THEN NULL ELSE {other_id: o.id, other_name: o.name,
                 decided_by: n.decided_by, reason: n.reason} END) AS rejected
}
RETURN e {.id, .name, .type, .description, .aliases, .mention_count} AS entity, mentions, pairs, rejected
