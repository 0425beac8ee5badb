// report_project_mentions: GDS projection of the unresolved layer: Mentions and active raw triples.
// Params: $graph string (projection name). Undirected: components ignore edge direction.
// Each mention's own triples are read, then filtered: with the status in the pattern, the planner may
// seek every active triple of the graph (the relates_status index) for every mention.
MATCH (s:Mention)
WITH s, [x IN [(s)-[t:RELATES]->(o:Mention) | [t.status, o]] WHERE x[0] = 'active' | x[1]] AS targets
UNWIND CASE WHEN targets = [] THEN [null] ELSE targets END AS o
WITH gds.graph.project($graph, s, o, {}, {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
