// ingest_triples: upsert raw triples between Mentions and add each new one to the Entity-level
// RELATED projection (one RELATED per entity pair and predicate; triple_ids lists its triples, sorted,
// weight sums theirs): the same edge resolve_merge_related_rebuild derives, so merges and rollbacks round-trip.
// Params: $rows list<{id, key, subject_id, object_id, predicate, description, weight, chunk_ids}>,
//         $source string, $run_id string. Both endpoints exist: the importer adds inferred mentions.
// Rows with one id (an input that repeats a triple) count once: the RELATED guard below cannot see a
// row of the same statement that the planner has not yet written.
UNWIND $rows AS candidate
WITH candidate.id AS id, head(collect(candidate)) AS row
MATCH (s:Mention {id: row.subject_id})
MATCH (o:Mention {id: row.object_id})
MERGE (s)-[t:RELATES {id: row.id}]->(o)
ON CREATE SET t.predicate = row.predicate, t.description = row.description, t.weight = row.weight,
              t.chunk_ids = row.chunk_ids, t.source_system = $source, t.source_key = row.key,
              t.status = 'active', t.ingest_run_id = $run_id
WITH s, o, row
MATCH (s)-[:REFERS_TO]->(es:Entity)
MATCH (o)-[:REFERS_TO]->(eo:Entity)
MERGE (es)-[r:RELATED {predicate: row.predicate}]->(eo)
ON CREATE SET r.triple_ids = [], r.weight = 0.0
WITH es, eo, r, row, r.triple_ids = [] AS created WHERE NOT row.id IN r.triple_ids
SET r.triple_ids = apoc.coll.sort(r.triple_ids + row.id), r.weight = r.weight + coalesce(row.weight, 1.0)
// A new edge between two embedded entities (a triple between resolved mentions) changes both context
// embeddings: marked, the next resolve recomputes them (kgres.resolve.merge.recompute_marked_contexts).
// An edge to a new entity is left to the increment, which embeds it and recomputes around it.
WITH es, eo WHERE created AND es.embedding IS NOT NULL AND eo.embedding IS NOT NULL
SET es:ContextStale, eo:ContextStale
