// ingest_run_start: record (or find) the IngestRun for this exact input. Ids are content-derived, so
// re-ingesting the same files finds the same run and changes nothing.
// Params: $run_id, $source, $format, $path, $input_hash strings.
MERGE (r:IngestRun {id: $run_id})
ON CREATE SET r.source_system = $source, r.format = $format, r.path = $path, r.input_hash = $input_hash,
              r.started_at = datetime(), r.status = 'running', r.kgres_version = $kgres_version
RETURN r.status AS status
