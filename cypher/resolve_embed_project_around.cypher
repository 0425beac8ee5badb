// resolve_embed_project_around: the part of resolve_embed_project that the context embeddings of $ids and
// of their neighbours depend on: those entities, every RELATED edge touching them (each once,
// undirected) and the entities at the other end, with text embeddings. A context embedding reads
// only its neighbours' embeddings, so these come out as in the whole graph's projection.
// Neighbours with more than $max_degree neighbours (hubs) are left out: one new neighbour barely
// moves the mean of theirs, and projecting all their edges exceeded the transaction memory (10k new
// mentions into 90k).
// Params: $graph string (projection name), $ids list<string>, $max_degree int.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
WHERE COUNT { (n)-[:RELATED]-() } <= $max_degree
WITH collect(DISTINCT f) + collect(DISTINCT n) AS around
CALL (around) {
  UNWIND around AS t
  MATCH (t)-[r:RELATED]-(:Entity)
  WITH DISTINCT r
  WITH startNode(r) AS s, endNode(r) AS o
  WHERE s.embedding IS NOT NULL AND o.embedding IS NOT NULL
  RETURN s, o
  UNION
  UNWIND around AS s
  WITH s WHERE s.embedding IS NOT NULL
  RETURN s, null AS o
}
WITH gds.graph.project($graph, s, o,
       {sourceNodeProperties: s {.embedding}, targetNodeProperties: CASE WHEN o IS NULL THEN null ELSE o {.embedding} END},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
