// report_project_mentions: GDS projection of the unresolved layer: Mentions and active raw triples.
// Params: $graph string (projection name). Undirected: components ignore edge direction.
MATCH (s:Mention)
OPTIONAL MATCH (s)-[t:RELATES {status: 'active'}]->(o:Mention)
WITH gds.graph.project($graph, s, o, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
