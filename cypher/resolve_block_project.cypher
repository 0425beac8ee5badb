// resolve_block_project: GDS projection of the entity graph for graph-wide blocking (node similarity on
// shared neighbours; k-means over text embeddings). Undirected RELATED; every entity is a node.
// Every entity comes first, on a row of its own, in id order, then the edges: GDS numbers the nodes as
// it meets them, and node similarity breaks ties between equally similar entities by that number.
// Met in store order (a label scan), which differs between two loads of the same input (the store
// reuses freed ids), the k most similar differed by a tie or two per pass (cesi-ambiguous: 2 pairs).
// Params: $graph string, $with_embedding bool (project the embedding property for k-means).
MATCH (s:Entity)
WHERE NOT $with_embedding OR s.embedding IS NOT NULL
WITH s ORDER BY s.id
WITH collect(s) AS nodes
CALL (nodes) {
  UNWIND nodes AS s
  RETURN s, null AS o, true AS own
  UNION ALL
  UNWIND nodes AS s
  MATCH (s)-[:RELATED]->(o:Entity)
  WHERE NOT $with_embedding OR o.embedding IS NOT NULL
  RETURN s, o, false AS own
}
WITH gds.graph.project($graph, s, o,
       CASE WHEN $with_embedding
            THEN {sourceNodeProperties: CASE WHEN own THEN s {.embedding} ELSE null END, targetNodeProperties: null}
            ELSE {} END,
       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
