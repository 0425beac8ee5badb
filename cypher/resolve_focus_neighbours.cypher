// resolve_focus_neighbours: the entities in $ids and their RELATED neighbours, by id: what the next
// pass of a whole resolve re-examines after merges into $ids (a merge changes what its neighbours'
// candidates share, and so their scores, as much as its own).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
CALL (e) {
  RETURN e.id AS focus
  UNION
  MATCH (e)-[:RELATED]-(n:Entity)
  RETURN n.id AS focus
}
RETURN DISTINCT focus AS id
ORDER BY id
