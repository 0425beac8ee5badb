// evaluate_path_step_entities: entities named $target (name or any alias, case-insensitive) that a
// RELATED edge joins to one of the entities in $frm; all of them when $frm is null.
// Params: $target string, $frm list<string> or null.
MATCH (n:Entity)
WHERE (toLower(n.name) = toLower($target) OR any(a IN coalesce(n.aliases, []) WHERE toLower(a) = toLower($target)))
  AND ($frm IS NULL OR EXISTS { MATCH (n)-[:RELATED]-(f:Entity) WHERE f.id IN $frm })
RETURN DISTINCT n.id AS id
