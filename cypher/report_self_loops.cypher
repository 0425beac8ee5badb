// report_self_loops: RELATED edges from an entity to itself: two of its mentions were related by a
// raw triple, so a merge made it related to itself (an over-merge suspect).
// Params: $limit int.
MATCH (e:Entity)-[r:RELATED]->(e)
RETURN e.id AS id, e.name AS name, r.predicate AS predicate, size(r.triple_ids) AS triples
ORDER BY triples DESC, id
LIMIT $limit
