// resolve_new_entities: the entities that mentions imported since $since still refer to as imported
// (one per mention, not yet resolved): what `kgres resolve --new` resolves. Through the REFERS_TO
// run index, so the cost follows the new mentions, not the graph (left to the planner, it scanned
// every entity and expanded its mentions).
// Params: $since string (a datetime).
MATCH (i:IngestRun)
WHERE i.started_at >= datetime($since)
WITH collect(i.id) AS imports
UNWIND imports AS import
MATCH (:Mention)-[r:REFERS_TO]->(e:Entity)
USING INDEX r:REFERS_TO(run_id)
WHERE r.run_id = import
RETURN DISTINCT e.id AS id
ORDER BY id
