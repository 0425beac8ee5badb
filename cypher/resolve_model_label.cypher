// resolve_model_label: keep a decision on a pair (a person's or the LLM judge's) as a training label of
// the match model, with the comparison levels the pair had when it was decided. One label per pair:
// a later decision replaces an earlier one.
// Params: $a, $b strings (entity ids, a < b), $label bool (same?), $levels_json string, $decided_by string.
MERGE (l:PairLabel {a: $a, b: $b})
SET l.label = $label, l.levels_json = $levels_json, l.decided_by = $decided_by, l.decided_at = datetime()
