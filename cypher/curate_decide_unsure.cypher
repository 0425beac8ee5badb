// curate_decide_unsure: record that a person (or the judge) could not decide two Entities: their
// candidate pairs keep their band and go to the back of the review queue, with who deferred them and why.
// Params: $a, $b entity ids; $decided_by, $reason strings.
MATCH (:Entity {id: $a})-[c:CANDIDATE]-(:Entity {id: $b})
SET c.deferred_by = $decided_by, c.deferred_at = datetime(), c.deferred_reason = $reason
RETURN count(c) AS n
