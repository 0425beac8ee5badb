// resolve_embed_project_around: the part of resolve_embed_project that the context embeddings of $ids and
// of their neighbours depend on: those entities, every RELATED edge touching them (each once,
// undirected) and the entities at the other end, with text embeddings. A context embedding reads
// only its neighbours' embeddings, so these come out as in the whole graph's projection.
// Params: $graph string (projection name), $ids list<string>.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
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
