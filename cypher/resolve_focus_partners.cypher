// resolve_focus_partners: the current entities that had a candidate pair, in one of $run_ids (the
// passes of this resolve so far), whose names say something (name_rule not in $unknown) with an
// entity of $ids (merged away or merged into in the last pass). Their nearest-name lists changed: a
// slot freed, or a partner gained the aliases of what it absorbed ("H. Lamport" finds "Hedy Lamport"
// only when it looks again), so the next focused pass blocks them again.
// Each entity's own edges are read, then filtered: with a predicate on the edges' run_id in the pattern,
// the planner may seek the run's whole candidate_run index for every id (it does when the index was
// sampled before the run wrote its edges: FEBRL's 5k records, 85 s instead of 0.1 s).
// Params: $ids list<string>, $run_ids list<string>, $unknown list<string>.
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id})
  RETURN e
  UNION
  MATCH (e:RetiredEntity {id: id})
  RETURN e
}
UNWIND [(e)-[c:CANDIDATE]-(x:Entity) | [c, x]] AS edge
WITH edge[0] AS c, edge[1] AS x
WHERE c.run_id IN $run_ids AND c.name_rule IS NOT NULL AND NOT c.name_rule IN $unknown
RETURN DISTINCT x.id AS id
ORDER BY id
