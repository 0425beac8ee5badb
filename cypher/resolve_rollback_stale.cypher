// resolve_rollback_stale: up to $limit entities whose aggregates and RELATED edges wait for a refresh (the
// :Stale mark resolve_rollback_run sets), in id order; a refresh clears the mark.
// Params: $limit int.
MATCH (e:Entity:Stale)
RETURN e.id AS id
ORDER BY id
LIMIT $limit
