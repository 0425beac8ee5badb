// curate_split_entity: undo, for one absorbed entity, the merge that retired it: its own mentions get back
// the REFERS_TO they had (restored from REFERRED_TO), it is revived, and NOT_SAME_AS keeps it apart.
// Only mentions whose current REFERS_TO is the one that merge created are moved (latest state only).
// The entities are marked :Stale in the same transaction (as curate_split_mention).
// Params: $id retired entity id, $decided_by, $reason strings. Returns the canonical entity's id.
MATCH (x:RetiredEntity {id: $id})
MATCH (m:Mention)-[h:REFERRED_TO]->(x)
MATCH (m)-[n:REFERS_TO]->(c:Entity)
WHERE n.run_id = h.superseded_by_run AND n.previous_entity_id = x.id
CREATE (m)-[r:REFERS_TO]->(x)
SET r = properties(h)
REMOVE r.superseded_by_run
DELETE n, h
WITH x, collect(DISTINCT c) AS cs
REMOVE x:RetiredEntity
SET x:Entity
REMOVE x.retired_by_run, x.merged_into
SET x:Stale
FOREACH (c IN cs | SET c:Stale)
WITH x, cs
UNWIND cs AS c
MERGE (x)-[ns:NOT_SAME_AS]->(c)
ON CREATE SET ns.decided_by = $decided_by, ns.decided_at = datetime(), ns.reason = $reason
RETURN c.id AS canonical
