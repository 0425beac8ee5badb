// evaluate_before_run: each mention's input id and the entity it referred to before $run_id (or any of
// its later passes, "<run_id>.<n>") moved it: the target of its earliest history edge of that run,
// else its current entity.
// Params: $run_id string, $include_self bool (false: keep what the run itself moved, e.g. its collapse). Streamed.
MATCH (m:Mention)-[:REFERS_TO]->(now:Entity)
CALL (m) {
  OPTIONAL MATCH (m)-[h:REFERRED_TO]->(old)
  WHERE ($include_self AND h.superseded_by_run = $run_id) OR h.superseded_by_run STARTS WITH $run_id + '.'
  RETURN old ORDER BY size(h.superseded_by_run), h.superseded_by_run LIMIT 1
}
RETURN m.source_key AS key, coalesce(old.id, now.id) AS entity
