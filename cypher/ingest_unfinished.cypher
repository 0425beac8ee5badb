// ingest_unfinished: imports that were interrupted (status running) or whose rollback was (rolling_back),
// oldest first. While one exists the graph holds part of an input: resolve refuses to run on it.
// Params: none.
MATCH (i:IngestRun)
WHERE i.status IN ['running', 'rolling_back']
RETURN i.id AS id, i.status AS status, i.format AS format, i.path AS path, i.source_system AS source
ORDER BY i.started_at, i.id
