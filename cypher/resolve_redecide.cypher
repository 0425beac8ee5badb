// resolve_redecide: take each retired entity of $rows back out of the entity its merge put it in: the
// mentions that merge moved (and no later one) refer to it again, as a move of $run_id (method
// 'redecide', the superseded REFERS_TO kept as REFERRED_TO history), so a rollback of $run_id moves
// them back. It is revived with what it was as a retired entity kept in revived_from
// (resolve_rollback_revived restores it); both entities are marked :Stale in the same transaction.
// Params: $rows list<{id, evidence}>, $run_id, $decided_by strings. Returns the revived and their holders.
UNWIND $rows AS row
MATCH (x:RetiredEntity {id: row.id})
MATCH (c:Entity {id: x.merged_into})
CALL (x, c, row) {
  // c's own edges, filtered after: on n.run_id in the pattern the planner may seek every REFERS_TO of
  // that run (the refers_to_run index; a collapse run moves most mentions of the graph) per row
  UNWIND [(m:Mention)-[n:REFERS_TO]->(c) | [m, n]] AS moved
  WITH x, c, row, moved[0] AS m, moved[1] AS n
  WHERE n.run_id = x.retired_by_run AND n.previous_entity_id = x.id
  CREATE (m)-[h:REFERRED_TO]->(c)
  SET h = properties(n), h.superseded_by_run = $run_id
  CREATE (m)-[r:REFERS_TO]->(x)
  SET r.confidence = 1.0, r.method = 'redecide', r.run_id = $run_id, r.decided_by = $decided_by,
      r.decided_at = datetime(), r.evidence = row.evidence, r.previous_entity_id = c.id
  DELETE n
}
SET x.revived_by_run = $run_id,
    x.revived_from = apoc.convert.toJson(x {.retired_by_run, .merged_into, .aliases, .mention_count, .trail_aliases,
                                            .trail_methods, .trail_run_ids, .trail_confidences, .trail_mentions})
REMOVE x:RetiredEntity, x.retired_by_run, x.merged_into
SET x:Entity:Stale, c:Stale
RETURN x.id AS id, c.id AS holder
