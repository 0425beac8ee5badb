// resolve_score_page: a page of a run's unscored CANDIDATE pairs, sought by relationship elementId
// ($rels, from resolve_score_sources). What comparing needs about each entity (names, neighbours
// and the predicates to them, vectors, chunks) comes once per entity from resolve_score_sides, and
// the cosines, the shared chunk and the predicates between the two are computed from it: read
// per pair, the vectors cost more than the rest of the page together. Recorded NOT_SAME_AS
// decisions are read once per stage (resolve_score_not_same_as). rel is the pair's relationship,
// which resolve_score_write seeks again the same way. The run and that the pair is unscored are
// checked after the seek, so a stale elementId never reads another run's pair. The seek is a subquery of
// its own: with the run's filter beside it, the planner sought the run's whole candidate_run index for
// every rel instead (quadratic in the run's pairs).
// Params: $run_id string, $rels list<string>.
UNWIND $rels AS rel
CALL (rel) {
  MATCH ()-[c:CANDIDATE]->()
  WHERE elementId(c) = rel
  RETURN c
}
WITH c, rel
WHERE c.run_id = $run_id AND c.score IS NULL
WITH startNode(c) AS a, endNode(c) AS b, rel
WHERE a:Entity AND b:Entity
RETURN a.id AS a, b.id AS b, rel
