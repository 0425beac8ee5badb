// curate_export_same_as: every SAME_AS link between current entities (synonym clusters for export).
// Params: none.
MATCH (a:Entity)-[:SAME_AS]->(b:Entity)
RETURN a.id AS a, b.id AS b
