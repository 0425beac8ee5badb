// resolve_merge_groups: move every mention of each group member to the group's canonical Entity.
// The superseded REFERS_TO is kept, property for property, as a REFERRED_TO history edge; the new
// REFERS_TO records who decided, when, how confident, in which run, why, and the previous entity.
// Absorbed entities become :RetiredEntity (kept for undo); their RELATED edges move to the canonical
// entity, each joined to the canonical's edge of the same predicate and far end (a far end that is the
// member itself or the canonical becomes the canonical: a self-loop): the triple ids joined and sorted,
// the weights summed, the edge resolve_merge_related_rebuild derives from the moved mentions' triples,
// in proportion to the members' edges, not the canonical's (a large entity gaining one copy rebuilt
// all its edges). An edge whose far end is a member of another group of $groups moves on with that
// member's row. A member marked :Stale (edges not yet derived again) marks its canonical :Stale.
// Params: $groups list<{canonical, members: list<{id, confidence, evidence}>}>, $run_id, $method,
//         $decided_by strings.
// Returns one row: stale, the canonicals marked :Stale (to be refreshed whole).
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
CALL (e, c) {
  MATCH (e)-[rel:RELATED]->(o)
  WITH rel, CASE WHEN o = e THEN c ELSE o END AS far
  MERGE (c)-[r:RELATED {predicate: rel.predicate}]->(far)
  ON CREATE SET r.triple_ids = [], r.weight = 0.0
  SET r.triple_ids = apoc.coll.sort(r.triple_ids + rel.triple_ids), r.weight = r.weight + rel.weight
  DELETE rel
}
CALL (e, c) {
  MATCH (s)-[rel:RELATED]->(e)
  MERGE (s)-[r:RELATED {predicate: rel.predicate}]->(c)
  ON CREATE SET r.triple_ids = [], r.weight = 0.0
  SET r.triple_ids = apoc.coll.sort(r.triple_ids + rel.triple_ids), r.weight = r.weight + rel.weight
  DELETE rel
}
FOREACH (_ IN CASE WHEN e:Stale THEN [1] ELSE [] END | SET c:Stale)
REMOVE e:Entity
SET e:RetiredEntity, e.retired_by_run = $run_id, e.merged_into = c.id
WITH DISTINCT c
RETURN [x IN collect(c) WHERE x:Stale | x.id] AS stale
