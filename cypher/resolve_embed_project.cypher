// resolve_embed_project: GDS projection of the entity graph with text embeddings as a node property, for
// FastRP. Undirected RELATED; entities without neighbours are included.
// Params: $graph string (projection name).
MATCH (s:Entity)
WHERE s.embedding IS NOT NULL
OPTIONAL MATCH (s)-[:RELATED]->(o:Entity)
WHERE o.embedding IS NOT NULL
WITH gds.graph.project($graph, s, o,
       {sourceNodeProperties: s {.embedding}, targetNodeProperties: o {.embedding}},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
