// resolve_merge_same_as: synonym mode: link each group member to its canonical entity with SAME_AS instead
// of merging; nothing moves. One edge per pair and run.
// Params: $groups list<{canonical, members: list<{id, confidence, evidence}>}>, $run_id, $method,
//         $decided_by strings.
UNWIND $groups AS g
MATCH (c:Entity {id: g.canonical})
UNWIND g.members AS member
MATCH (e:Entity {id: member.id})
WHERE e <> c
CALL (e, c, member) {
  // Not MERGE, nor a MATCH on run_id: the planner may seek the run_id index per row (quadratic).
  WITH e, c, member WHERE NOT $run_id IN [(e)-[old:SAME_AS]->(c) | old.run_id]
  CREATE (e)-[s:SAME_AS {run_id: $run_id}]->(c)
  SET s.confidence = member.confidence, s.method = $method, s.decided_by = $decided_by,
      s.decided_at = datetime(), s.evidence = member.evidence
}
