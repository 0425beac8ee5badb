// curate_split_mention: give one mention back the REFERS_TO it had before the latest merge moved it,
// reviving its previous entity (with this mention only) and recording NOT_SAME_AS. Both entities are
// marked :Stale in the same transaction (kgres.curate.split refreshes them; so does the next command if
// this one is killed first, see kgres.resolve.merge.finish_decisions).
// Params: $id mention id, $decided_by, $reason strings. Returns previous and canonical ids.
MATCH (m:Mention {id: $id})-[n:REFERS_TO]->(c:Entity)
MATCH (m)-[h:REFERRED_TO {superseded_by_run: n.run_id}]->(x)
WHERE x.id = n.previous_entity_id
CREATE (m)-[r:REFERS_TO]->(x)
SET r = properties(h)
REMOVE r.superseded_by_run
DELETE n, h
WITH x, c
REMOVE x:RetiredEntity
SET x:Entity
REMOVE x.retired_by_run, x.merged_into
SET x:Stale, c:Stale
MERGE (x)-[ns:NOT_SAME_AS]->(c)
ON CREATE SET ns.decided_by = $decided_by, ns.decided_at = datetime(), ns.reason = $reason
RETURN x.id AS previous, c.id AS canonical
