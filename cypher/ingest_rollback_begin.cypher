// ingest_rollback_begin: mark an import as being rolled back, before anything is removed, so that an
// interrupted rollback is visible (ingest_unfinished) and a rerun of kgres rollback finishes it.
// Params: $run_id string.
MATCH (i:IngestRun {id: $run_id})
SET i.status = 'rolling_back'
