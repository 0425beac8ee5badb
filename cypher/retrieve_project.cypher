// retrieve_project: the GDS projection retrieval ranks on: every Entity, RELATED (active triples
// only) undirected and weighted.
// Params: $graph string.
MATCH (s:Entity)
OPTIONAL MATCH (s)-[r:RELATED]->(o:Entity)
WITH gds.graph.project($graph, s, o, {relationshipProperties: r {weight: coalesce(r.weight, 1.0)}},
                       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
