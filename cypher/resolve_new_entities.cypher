// resolve_new_entities: the entities that mentions imported since $since still refer to as imported
// (one per mention, not yet resolved): what `kgres resolve --new` resolves. Through the REFERS_TO
// run index, so the cost follows the new mentions, not the graph.
// Params: $since string (a datetime).
MATCH (i:IngestRun)
WHERE i.started_at >= datetime($since)
MATCH (:Mention)-[:REFERS_TO {run_id: i.id}]->(e:Entity)
RETURN DISTINCT e.id AS id
ORDER BY id
