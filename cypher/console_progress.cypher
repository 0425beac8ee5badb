// console_progress: decisions made (training labels, by who made them), and the latest whole resolve:
// the stats of each of its passes (their auto bands and the model's expected precision), and the
// labels newer than it.
// Params: $strategies list<string>.
CALL () {
  MATCH (l:PairLabel)
  RETURN count(l) AS labels, count(CASE WHEN l.label THEN 1 END) AS accepted,
         count(CASE WHEN l.decided_by STARTS WITH 'llm' THEN 1 END) AS by_llm
}
CALL () {
  OPTIONAL MATCH (r:ResolutionRun)
  WHERE r.parent IS NULL AND r.strategy IN $strategies AND r.status = 'done'
  WITH r ORDER BY r.started_at DESC LIMIT 1
  OPTIONAL MATCH (p:ResolutionRun) WHERE p.id = r.id OR p.parent = r.id
  WITH r, collect(p.stats) AS stats
  OPTIONAL MATCH (l:PairLabel) WHERE l.decided_at >= r.started_at
  RETURN r.id AS run_id, stats, count(l) AS labels_since, count(CASE WHEN l.label THEN 1 END) AS accepted_since
}
RETURN labels, accepted, by_llm, run_id, stats, labels_since, accepted_since
