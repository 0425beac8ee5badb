// curate_decide_reject: record that two Entities are different (NOT_SAME_AS), and mark their candidate pairs.
// Params: $a, $b entity ids; $decided_by, $reason strings.
MATCH (a:Entity {id: $a}), (b:Entity {id: $b})
MERGE (a)-[n:NOT_SAME_AS]->(b)
ON CREATE SET n.decided_by = $decided_by, n.decided_at = datetime(), n.reason = $reason
WITH a, b
OPTIONAL MATCH (a)-[c:CANDIDATE]-(b)
SET c.decision = 'rejected'
RETURN count(*) AS n
