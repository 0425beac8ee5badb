// resolve_rollback_run: give up to $limit mentions moved by $run_id back the REFERS_TO they had before
// (restored property for property from the REFERRED_TO history edge) and revive the retired
// entities. Called until it moves nothing (one bounded transaction per call: a 100k-mention
// rollback in one transaction exceeds the transaction memory limit); an interrupted rollback
// continues where it stopped. The entities whose aggregates and RELATED edges must be rebuilt are
// labelled :Stale in the same transaction (resolve_merge_related_rebuild removes it), so a rollback
// killed before its refresh leaves the record of what to refresh in the database, not in memory.
// Params: $run_id string, $limit int. Returns how many mentions moved.
MATCH (m:Mention)-[n:REFERS_TO {run_id: $run_id}]->(c:Entity)
WITH m, n, c LIMIT $limit
MATCH (m)-[h:REFERRED_TO {superseded_by_run: $run_id}]->(e)
CREATE (m)-[r:REFERS_TO]->(e)
SET r = properties(h)
REMOVE r.superseded_by_run
DELETE n, h
WITH collect(DISTINCT e) AS restored, collect(DISTINCT c) AS canonical, count(*) AS moved
FOREACH (e IN restored | REMOVE e:RetiredEntity SET e:Entity:Stale REMOVE e.retired_by_run, e.merged_into)
FOREACH (c IN canonical | SET c:Stale)
RETURN moved
