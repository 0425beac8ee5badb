// run_start: create the ResolutionRun node that every decision of this run points to.
// Params: $run_id, $config (JSON string), $kgres_version, $strategy strings; $parent string or null
// (the first pass's id, for later passes of one `kgres resolve`).
CREATE (r:ResolutionRun {id: $run_id, started_at: datetime(), config: $config, strategy: $strategy,
                         kgres_version: $kgres_version, status: 'running', parent: $parent})
