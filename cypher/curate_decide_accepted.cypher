// curate_decide_accepted: mark the candidate pairs between two Entities as accepted by a human.
// Params: $a, $b entity ids.
MATCH (a:Entity {id: $a})-[c:CANDIDATE]-(b:Entity {id: $b})
SET c.decision = 'accepted'
