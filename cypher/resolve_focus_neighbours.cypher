// resolve_focus_neighbours: what the next pass of a whole resolve re-examines after the merges of pass
// $run_id into the entities $ids: those entities (they gained names, mentions and neighbours) and the
// entities related through the triples of the mentions that moved into them in that pass. A merge
// changes what those neighbours' candidates share: a neighbour of a merged-away "Dr. Watson" now
// shares "Watson" with every neighbour "Watson" had, and its neighbour list names another entity.
// The canonical's own older neighbours see the same entity as before (its name, type and text stay),
// so they are not re-examined for it. (100k generated mentions: this alone made pass 3's focus 12,029
// entities, not 12,722; with the partners' pairs carried instead of re-blocked, 6,065.)
// Params: $ids list<string>, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
CALL (e) {
  RETURN e.id AS focus
  UNION
  // each entity's own edges, read then filtered: with the run or the status as a predicate, the planner
  // seeks the REFERS_TO(run_id) or RELATES(status) index once per entity
  UNWIND [(e)<-[r:REFERS_TO]-(m:Mention) | [r.run_id, m]] AS moved
  WITH moved[1] AS m WHERE moved[0] = $run_id
  UNWIND [(m)-[t:RELATES]-(o:Mention) | [t.status, o]] AS edge
  WITH edge WHERE edge[0] = 'active'
  WITH edge[1] AS o
  MATCH (o)-[:REFERS_TO]->(n:Entity)
  RETURN n.id AS focus
}
RETURN DISTINCT focus AS id
ORDER BY id
