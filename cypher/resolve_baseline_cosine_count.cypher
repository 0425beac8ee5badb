// resolve_baseline_cosine_count: how many SAME_AS links one run of the cosine baseline holds.
// Params: $run_id string.
MATCH ()-[s:SAME_AS {run_id: $run_id}]->()
RETURN count(s) AS n
