// resolve_embed_project_around: the part of resolve_embed_project that the context embeddings of $ids and
// of their neighbours depend on: those entities, every RELATED edge touching them (each once, in both
// directions as the whole graph's undirected projection has it, parallel edges included) and the
// entities at the other end, with text embeddings. A context embedding reads only its neighbours'
// embeddings, so these come out as in the whole graph's projection.
// Each entity's embedding is given once, on a row of its own ahead of the edge rows (GDS keeps a node's
// first properties): given on every edge row, the boxed 384-float lists of 500 ids' neighbourhoods
// took most of a second and 1,500 ids' exceeded the transaction memory at 100k mentions.
// Neighbours with more than $max_degree neighbours (hubs) are left out: one new neighbour barely
// moves the mean of theirs, and projecting all their edges exceeded the transaction memory (10k new
// mentions into 90k).
// Params: $graph string (projection name), $ids list<string>, $max_degree int.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
WHERE COUNT { (n)-[:RELATED]-() } <= $max_degree
WITH collect(DISTINCT f) + collect(DISTINCT n) AS found
CALL (found) {  // in id order, as resolve_embed_project gives its rows (why there)
  UNWIND found AS x
  WITH DISTINCT x ORDER BY x.id
  RETURN collect(x) AS around
}
CALL (around) {
  UNWIND around AS t
  MATCH (t)-[r:RELATED]-(:Entity)
  WITH DISTINCT r
  WITH startNode(r) AS s, endNode(r) AS o, r.predicate AS predicate
  WHERE s.embedding IS NOT NULL AND o.embedding IS NOT NULL
  WITH s, o ORDER BY s.id, o.id, predicate
  RETURN collect([s, o]) AS edges
}
CALL (around, edges) {
  UNWIND [x IN around WHERE x.embedding IS NOT NULL] + [e IN edges | e[0]] + [e IN edges | e[1]] AS s
  WITH DISTINCT s
  RETURN s, null AS o, true AS own
  UNION ALL
  UNWIND edges AS e
  RETURN e[0] AS s, e[1] AS o, false AS own
}
WITH gds.graph.project($graph, s, o,
       {sourceNodeProperties: CASE WHEN own THEN s {.embedding} ELSE null END, targetNodeProperties: null},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
