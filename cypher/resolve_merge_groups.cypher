// resolve_merge_groups: move every mention of each group member to the group's canonical Entity.
// The superseded REFERS_TO is kept, property for property, as a REFERRED_TO history edge; the new
// REFERS_TO records who decided, when, how confident, in which run, why, and the previous entity.
// Absorbed entities become :RetiredEntity (kept for undo); their RELATED edges are dropped here and
// rebuilt for the canonical entity by resolve_merge_related_rebuild.
// Params: $groups list<{canonical, members: list<{id, confidence, evidence}>}>, $run_id, $method,
//         $decided_by strings.
UNWIND $groups AS g
MATCH (c:Entity {id: g.canonical})
UNWIND g.members AS member
MATCH (e:Entity {id: member.id})
WHERE e <> c
CALL (e, c, member) {
  MATCH (m:Mention)-[r:REFERS_TO]->(e)
  CREATE (m)-[h:REFERRED_TO]->(e)
  SET h = properties(r), h.superseded_by_run = $run_id
  CREATE (m)-[n:REFERS_TO]->(c)
  SET n.confidence = member.confidence, n.method = $method, n.run_id = $run_id, n.decided_by = $decided_by,
      n.decided_at = datetime(), n.evidence = member.evidence, n.previous_entity_id = e.id
  DELETE r
}
CALL (e) {
  MATCH (e)-[rel:RELATED]-()
  DELETE rel
}
REMOVE e:Entity
SET e:RetiredEntity, e.retired_by_run = $run_id, e.merged_into = c.id
