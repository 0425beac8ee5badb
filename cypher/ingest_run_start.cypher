// ingest_run_start: record (or find) the IngestRun for this exact input. Ids are content-derived, so
// re-ingesting the same files finds the same run and changes nothing. A rolled-back import starts over
// (a new started_at: an incremental resolve looks for the entities of imports since the last resolve).
// Params: $run_id, $source, $format, $path, $input_hash, $kgres_version strings.
// Returns the status the run had before (null: new; 'running': an interrupted import being finished).
OPTIONAL MATCH (old:IngestRun {id: $run_id})
WITH old.status AS before
MERGE (r:IngestRun {id: $run_id})
ON CREATE SET r.source_system = $source, r.format = $format, r.path = $path, r.input_hash = $input_hash,
              r.started_at = datetime(), r.status = 'running', r.kgres_version = $kgres_version
WITH r, before
FOREACH (_ IN CASE WHEN before = 'rolled_back' THEN [1] ELSE [] END |
  SET r.started_at = datetime(), r.status = 'running', r.finished_at = null, r.stats_json = null,
      r.rolled_back_at = null, r.path = $path, r.kgres_version = $kgres_version)
RETURN before
