// resolve_merge_plan_read: the recorded merge decisions of an unfinished pass, in order (none when the
// pass had not decided yet).
// Params: $run_id string.
MATCH (p:MergePlan {run_id: $run_id})
RETURN p.part AS part, p.groups_json AS groups_json, p.method AS method, p.decided_by AS decided_by
ORDER BY part
