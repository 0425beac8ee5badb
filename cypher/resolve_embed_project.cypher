// resolve_embed_project: GDS projection of the entity graph, for the topology FastRP (resolve_embed_fastrp):
// embedded entities, undirected RELATED between them; entities without neighbours are included. No node
// properties: the topology FastRP reads none (with the text embeddings the projection took twice as long
// at 100k generated mentions, for the same vectors).
// Rows go in id order: GDS numbers the nodes as they first come, and FastRP adds up a node's neighbours
// in that order; in the store's order (which relationship ids a transaction got) the same graph gave
// embeddings a rounding apart from one run to the next (923 of 5,364 at 20k generated mentions).
// Params: $graph string (projection name).
MATCH (s:Entity)
WHERE s.embedding IS NOT NULL
OPTIONAL MATCH (s)-[:RELATED]->(o:Entity)
WHERE o.embedding IS NOT NULL
WITH s, o ORDER BY s.id, o.id
WITH gds.graph.project($graph, s, o, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
