// resolve_score_sources: the entities a run's unscored CANDIDATE pairs go out of, in id order, through
// the run's relationship index (resolve_score_page reads their pairs a page at a time).
// Params: $run_id string.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id}]->(:Entity)
USING INDEX c:CANDIDATE(run_id)
WHERE c.score IS NULL
RETURN DISTINCT a.id AS id
ORDER BY id
