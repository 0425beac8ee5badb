// ingest_run_finish: mark the IngestRun done with the input's counts (kept from the first finish).
// Params: $run_id string, $stats_json string.
MATCH (r:IngestRun {id: $run_id})
SET r.stats_json = CASE WHEN r.status = 'done' THEN r.stats_json ELSE $stats_json END,
    r.finished_at = coalesce(r.finished_at, datetime()),
    r.status = 'done'
