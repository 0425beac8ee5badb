// resolve_rollback_blockers: later runs that moved mentions this run had moved (roll those back first).
// Params: $run_id string.
MATCH (m:Mention)-[h:REFERRED_TO {superseded_by_run: $run_id}]->()
MATCH (m)-[later:REFERRED_TO]->()
WHERE later.run_id = $run_id
RETURN collect(DISTINCT later.superseded_by_run) AS runs
