// resolve_focus_partners: the current entities that had a candidate pair, in one of $run_ids (the
// passes of this resolve so far), whose names say something (name_rule not in $unknown) with an
// entity of $ids (merged away or merged into in the last pass). Their nearest-name lists changed: a
// slot freed, or a partner gained the aliases of what it absorbed ("H. Lamport" finds "Hedy Lamport"
// only when it looks again), so the next focused pass blocks them again.
// Params: $ids list<string>, $run_ids list<string>, $unknown list<string>.
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id})
  RETURN e
  UNION
  MATCH (e:RetiredEntity {id: id})
  RETURN e
}
MATCH (e)-[c:CANDIDATE]-(x:Entity)
WHERE c.run_id IN $run_ids AND c.name_rule IS NOT NULL AND NOT c.name_rule IN $unknown
RETURN DISTINCT x.id AS id
ORDER BY id
