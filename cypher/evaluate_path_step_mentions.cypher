// evaluate_path_step_mentions: mentions named $target (case-insensitive) that a raw triple joins to one of
// the mentions in $frm (the previous step of a question chain); all of them when $frm is null.
// Params: $target string, $frm list<string> or null.
MATCH (n:Mention)
WHERE toLower(n.name) = toLower($target)
  AND ($frm IS NULL OR EXISTS { MATCH (n)-[:RELATES]-(f:Mention) WHERE f.id IN $frm })
RETURN DISTINCT n.id AS id
