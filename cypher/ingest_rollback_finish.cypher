// ingest_rollback_finish: mark an import rolled back (its record stays; ingesting the same input again
// starts it over, see ingest_run_start).
// Params: $run_id string.
MATCH (i:IngestRun {id: $run_id})
SET i.status = 'rolled_back', i.rolled_back_at = datetime()
