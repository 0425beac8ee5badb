// report_project_entities: GDS projection of the resolved layer: Entities and RELATED edges.
// Params: $graph string (projection name). Undirected: components ignore edge direction.
MATCH (s:Entity)
OPTIONAL MATCH (s)-[:RELATED]->(o:Entity)
WITH gds.graph.project($graph, s, o, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
