// console_run_effect: what rolling a resolution run back would change: the mention moves it and its
// later passes made, the entities they retired (revived by the rollback) and their SAME_AS links.
// Params: $run string.
MATCH (r:ResolutionRun {id: $run})
OPTIONAL MATCH (c:ResolutionRun {parent: $run})
WITH r, [$run] + collect(c.id) AS ids
RETURN r {.id, .strategy, .status, started_at: toString(r.started_at)} AS run,
       COUNT { MATCH ()-[x:REFERS_TO]->() WHERE x.run_id IN ids } AS moved,
       COUNT { MATCH (x:RetiredEntity) WHERE x.retired_by_run IN ids } AS revived,
       COUNT { MATCH ()-[s:SAME_AS]->() WHERE s.run_id IN ids } AS links
