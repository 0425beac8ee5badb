// retrieve_communities_page: communities without a summary yet, with what a summary is written from: the
// top members (name, type, description) and the strongest relations among the members.
// Params: $limit int, $relations int.
MATCH (k:Community) WHERE k.summary IS NULL
WITH k ORDER BY k.size DESC, k.id LIMIT $limit
CALL (k) {
  MATCH (e:Entity)-[:IN_COMMUNITY]->(k)
  WITH e ORDER BY COUNT { (e)-[:RELATED]-() } DESC, e.id LIMIT 12
  RETURN collect(e {.name, .type, description: left(coalesce(e.description, ''), 200)}) AS members
}
CALL (k) {
  MATCH (a:Entity)-[:IN_COMMUNITY]->(k)<-[:IN_COMMUNITY]-(b:Entity), (a)-[r:RELATED]->(b)
  WITH a, b, r ORDER BY coalesce(r.weight, 1.0) DESC, a.id, b.id LIMIT $relations
  RETURN collect(a.name + ' ' + r.predicate + ' ' + b.name) AS relations
}
RETURN k.id AS id, k.size AS size, members, relations
