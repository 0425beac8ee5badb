// retrieve_project: the GDS projection retrieval ranks on: every Entity, RELATED (active triples
// only) undirected and weighted.
// Rows go in id order: GDS numbers the nodes as they first come, Leiden visits them in that order
// (its communities and their ids) and PageRank's equal scores are ranked by that number; in the store's
// order (which relationship ids a transaction got) one graph stored twice gave other communities.
// Params: $graph string.
MATCH (s:Entity)
OPTIONAL MATCH (s)-[r:RELATED]->(o:Entity)
WITH s, o, r ORDER BY s.id, o.id
WITH gds.graph.project($graph, s, o, {relationshipProperties: r {weight: coalesce(r.weight, 1.0)}},
                       {undirectedRelationshipTypes: ['*']}) AS g
RETURN g.nodeCount AS nodes, g.relationshipCount AS relationships
