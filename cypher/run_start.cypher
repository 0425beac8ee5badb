// run_start: create (or, when resuming, find) the ResolutionRun node that every decision of this run
// points to.
// Params: $run_id, $config (JSON string), $kgres_version, $strategy strings; $parent string or null
// (the first pass's id, for later passes of one `kgres resolve`); $focus list<string> or null (the
// entities this pass blocks; null for all), kept so an interrupted pass resumes with the same scope;
// $incremental bool (a pass of `kgres resolve --new`); $mentions int (the graph's size when it started);
// $keys string or null (the name-key version its normalize leaves on every entity); $carried_a,
// $carried_b list<string> or null (the pairs a focused pass scores besides its focus's, a[i] with b[i]).
MERGE (r:ResolutionRun {id: $run_id})
ON CREATE SET r.started_at = datetime(), r.config = $config, r.strategy = $strategy,
              r.kgres_version = $kgres_version, r.status = 'running', r.parent = $parent, r.focus = $focus,
              r.incremental = $incremental, r.mentions = $mentions, r.keys = $keys,
              r.carried_a = $carried_a, r.carried_b = $carried_b
