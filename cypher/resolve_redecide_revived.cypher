// resolve_redecide_revived: the entities $run_id has revived (resolve_redecide), so that a resumed run scores
// them again too.
// Params: $run_id string.
MATCH (x:Entity {revived_by_run: $run_id})
RETURN x.id AS id
ORDER BY id
