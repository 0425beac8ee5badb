// resolve_embed_project: GDS projection of the entity graph with text embeddings as a node property, for
// FastRP. Undirected RELATED; entities without neighbours are included.
// Rows go in id order: GDS numbers the nodes as they first come, and FastRP adds up a node's neighbours
// in that order; in the store's order (which relationship ids a transaction got) the same graph gave
// context embeddings a rounding apart from one run to the next (923 of 5,364 at 20k generated mentions).
// Params: $graph string (projection name).
MATCH (s:Entity)
WHERE s.embedding IS NOT NULL
OPTIONAL MATCH (s)-[:RELATED]->(o:Entity)
WHERE o.embedding IS NOT NULL
WITH s, o ORDER BY s.id, o.id
WITH gds.graph.project($graph, s, o,
       {sourceNodeProperties: s {.embedding}, targetNodeProperties: o {.embedding}},
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
