// ingest_rollback_mentions: remove up to $limit of the import's mentions with the entity each one made
// (an entity left with no mention goes; one that keeps mentions is marked :Stale for a refresh).
// Params: $run_id string, $limit int. Returns how many mentions were removed (0: none left).
MATCH (m:Mention {ingest_run_id: $run_id})
WITH m LIMIT $limit
OPTIONAL MATCH (m)-[:REFERS_TO]->(e:Entity)
WITH m, e
FOREACH (x IN CASE WHEN e IS NULL THEN [] ELSE [e] END | SET x:Stale)
DETACH DELETE m
WITH collect(DISTINCT e) AS entities, count(*) AS removed
CALL (entities) {
  UNWIND entities AS e
  WITH e WHERE NOT EXISTS { (:Mention)-[:REFERS_TO]->(e) }
  DETACH DELETE e
}
RETURN removed
