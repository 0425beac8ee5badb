// rollback_run: give every mention moved by $run_id back the REFERS_TO it had before (restored
// property for property from its REFERRED_TO history edge) and revive the retired entities.
// Params: $run_id string. Returns the ids whose aggregates and RELATED edges must be rebuilt.
MATCH (m:Mention)-[n:REFERS_TO {run_id: $run_id}]->(c:Entity)
MATCH (m)-[h:REFERRED_TO {superseded_by_run: $run_id}]->(e)
CREATE (m)-[r:REFERS_TO]->(e)
SET r = properties(h)
REMOVE r.superseded_by_run
DELETE n, h
WITH collect(DISTINCT e) AS restored, collect(DISTINCT c.id) AS canonical
FOREACH (e IN restored | REMOVE e:RetiredEntity SET e:Entity REMOVE e.retired_by_run, e.merged_into)
RETURN [e IN restored | e.id] + canonical AS affected
