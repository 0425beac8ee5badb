// resolve_block_count: candidate pairs of a run, per strategy (a pair proposed by two strategies counts in both).
// Params: $run_id string.
MATCH ()-[c:CANDIDATE {run_id: $run_id}]->()
UNWIND c.methods AS method
RETURN method, count(*) AS pairs
ORDER BY method
