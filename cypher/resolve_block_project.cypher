// resolve_block_project: GDS projection of the entity graph for graph-wide blocking (node similarity on
// shared neighbours; k-means over text embeddings). Undirected RELATED; every entity is a node.
// Params: $graph string, $with_embedding bool (project the embedding property for k-means).
MATCH (s:Entity)
WHERE NOT $with_embedding OR s.embedding IS NOT NULL
OPTIONAL MATCH (s)-[:RELATED]->(o:Entity)
WHERE NOT $with_embedding OR o.embedding IS NOT NULL
WITH gds.graph.project($graph, s, o,
       CASE WHEN $with_embedding
            THEN {sourceNodeProperties: s {.embedding}, targetNodeProperties: o {.embedding}}
            ELSE {} END,
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
