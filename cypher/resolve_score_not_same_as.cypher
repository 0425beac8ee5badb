// resolve_score_not_same_as: every recorded NOT_SAME_AS, as the current entities on each side of it:
// the entities whose mentions ever referred to x, and those whose mentions ever referred to y (so a
// rejection survives later merges). Any pair across the two lists is forbidden. Read once per score
// stage: decisions are few, and checking them per pair in resolve_score_page expanded every mention
// of both sides of every pair.
// Two MATCH clauses each side: within one pattern Cypher would not let the REFERS_TO that reached the
// mention serve again to reach its current entity.
// Params: none.
MATCH (x)-[:NOT_SAME_AS]->(y)
CALL (x) {
  MATCH (x)<-[:REFERS_TO|REFERRED_TO]-(m:Mention)
  MATCH (m)-[:REFERS_TO]->(a:Entity)
  RETURN collect(DISTINCT a.id) AS xs
}
CALL (y) {
  MATCH (y)<-[:REFERS_TO|REFERRED_TO]-(m:Mention)
  MATCH (m)-[:REFERS_TO]->(b:Entity)
  RETURN collect(DISTINCT b.id) AS ys
}
RETURN xs, ys
