// resolve_pairs_relations: predicates of RELATED edges between Entities of $ids (either direction).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (a:Entity {id: id})-[r:RELATED]-(b:Entity)
WHERE b.id IN $ids AND a.id < b.id
RETURN a.id AS a, b.id AS b, collect(DISTINCT r.predicate) AS predicates
