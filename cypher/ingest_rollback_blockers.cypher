// ingest_rollback_blockers: what keeps an import from being rolled back: resolution runs (resolves,
// accepted decisions, splits) started since it began and not rolled back, decisions recorded on the
// entities of its mentions, and triples of other imports that use its mentions. Up to 5 of each.
// Params: $run_id string. No row: no such import.
MATCH (i:IngestRun {id: $run_id})
CALL (i) {
  MATCH (r:ResolutionRun)
  WHERE r.started_at >= i.started_at AND r.status <> 'rolled_back'
  RETURN collect(r.id)[0..5] AS runs
}
CALL (i) {
  MATCH (m:Mention {ingest_run_id: i.id})-[:REFERS_TO]->(e:Entity)
  WHERE e.id <> 'ent:' + m.id OR EXISTS { (e)-[:NOT_SAME_AS|SAME_AS]-() }
  RETURN collect(m.id)[0..5] AS decided
}
CALL (i) {
  // each mention's own triples, expanded from it: as one pattern, the planner (by its statistics after a
  // small import) scanned the RELATES(ingest_run_id) index for every mention
  MATCH (m:Mention {ingest_run_id: i.id})
  CALL (m) {
    MATCH (m)-[t:RELATES]-()
    RETURN t
  }
  WITH i, t
  WHERE t.ingest_run_id <> i.id
  RETURN collect(DISTINCT t.ingest_run_id)[0..5] AS imports
}
RETURN i.status AS status, runs, decided, imports
