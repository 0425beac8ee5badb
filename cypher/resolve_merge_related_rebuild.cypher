// resolve_merge_related_rebuild: derive the RELATED edges touching the Entities in $ids from the active raw
// triples of their mentions: one per (subject entity, object entity, predicate), triple_ids sorted,
// weight summed. Run resolve_merge_related_delete on the same ids first. Same result as ingest_triples builds.
// Clears the :Stale mark (resolve_rollback_run) of $ids in the same transaction: the last step of a refresh.
// Params: $ids list<string>.
CALL () {
  UNWIND $ids AS id
  MATCH (e:Entity {id: id})
  WHERE e:Stale
  REMOVE e:Stale
}
// The triples are read from each entity's mentions, then filtered: with the status in the pattern, the
// planner may seek every active triple of the graph (the relates_status index) for every id.
UNWIND $ids AS id
MATCH (:Entity {id: id})<-[:REFERS_TO]-(m:Mention)
UNWIND [(m)-[t:RELATES]-(:Mention) | t] AS t
WITH DISTINCT t
WHERE t.status = 'active'
MATCH (s:Mention)-[t]->(o:Mention)
MATCH (s)-[:REFERS_TO]->(es:Entity)
MATCH (o)-[:REFERS_TO]->(eo:Entity)
WITH es, eo, t ORDER BY t.id
WITH es, eo, t.predicate AS predicate, collect(t.id) AS ids, sum(coalesce(t.weight, 1.0)) AS weight
MERGE (es)-[r:RELATED {predicate: predicate}]->(eo)
SET r.triple_ids = ids, r.weight = weight
