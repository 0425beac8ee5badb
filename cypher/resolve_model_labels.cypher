// resolve_model_labels: the pairs people and the LLM judge decided, with the comparison levels the
// pair had when it was decided (stored on the PairLabel, kgres.resolve.score.training), newest first.
// Params: $limit int.
MATCH (l:PairLabel)
RETURN l.a AS a, l.b AS b, l.label AS label, l.levels_json AS levels_json, l.decided_by AS decided_by
ORDER BY l.decided_at DESC, l.a, l.b
LIMIT $limit
