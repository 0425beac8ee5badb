// resolve_merge_same_as_review: merge+synonym mode: the review-band pairs of a run whose entities both still exist
// become SAME_AS soft links (confidence = the pair's score), so retrieval can follow what was not
// certain enough to merge. Pairs a person or the judge rejected are skipped.
// Params: $run_id, $decided_by strings.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id, band: 'review'}]->(b:Entity)
USING INDEX c:CANDIDATE(run_id)
WHERE NOT EXISTS { (a)-[:NOT_SAME_AS]-(b) }
CALL (a, b, c) {
  // Not MERGE, nor a MATCH on run_id: the planner may seek the run_id index per row (quadratic).
  WITH a, b, c WHERE NOT $run_id IN [(a)-[old:SAME_AS]->(b) | old.run_id]
  CREATE (a)-[s:SAME_AS {run_id: $run_id}]->(b)
  SET s.confidence = c.score, s.method = 'review-band', s.decided_by = $decided_by,
      s.decided_at = datetime(), s.evidence = c.signals_json
}
RETURN count(*) AS linked
