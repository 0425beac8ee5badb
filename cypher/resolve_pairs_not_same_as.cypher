// resolve_pairs_not_same_as: pairs among $ids that a NOT_SAME_AS separates, through every entity their
// mentions ever referred to (so a rejection survives later merges). Separate MATCH clauses on
// purpose: within one pattern Cypher would not reuse the REFERS_TO that reached the mention.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (a:Entity {id: id})<-[:REFERS_TO]-(ma:Mention)
MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(x)-[:NOT_SAME_AS]-(y)<-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
MATCH (mb)-[:REFERS_TO]->(b:Entity)
WHERE b.id IN $ids AND a.id < b.id
RETURN DISTINCT a.id AS a, b.id AS b
