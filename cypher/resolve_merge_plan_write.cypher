// resolve_merge_plan_write: record one transaction's worth of a pass's merge decisions before any is
// applied (:MergePlan, deleted when the run finishes), so that a pass interrupted mid-merge is
// finished by applying exactly these, not by deciding again on a partly merged graph.
// Params: $run_id string, $part int (order), $groups_json string (resolve_merge_groups' $groups),
//         $method, $decided_by strings.
MERGE (p:MergePlan {run_id: $run_id, part: $part})
ON CREATE SET p.groups_json = $groups_json, p.method = $method, p.decided_by = $decided_by
