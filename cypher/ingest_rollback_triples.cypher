// ingest_rollback_triples: remove up to $limit of the import's raw triples; the entities at both ends
// are marked :Stale in the same transaction, so their RELATED edges are rebuilt (resolve_rollback_stale).
// Params: $run_id string, $limit int. Returns how many were removed (0: none left).
MATCH (s:Mention)-[t:RELATES {ingest_run_id: $run_id}]->(o:Mention)
WITH s, t, o LIMIT $limit
OPTIONAL MATCH (s)-[:REFERS_TO]->(es:Entity)
OPTIONAL MATCH (o)-[:REFERS_TO]->(eo:Entity)
FOREACH (e IN [x IN [es, eo] WHERE x IS NOT NULL] | SET e:Stale)
DELETE t
RETURN count(*) AS removed
