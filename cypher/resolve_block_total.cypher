// resolve_block_total: number of candidate pairs of a run.
// Params: $run_id string.
MATCH ()-[c:CANDIDATE {run_id: $run_id}]->()
RETURN count(c) AS pairs
