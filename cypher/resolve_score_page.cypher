// resolve_score_page: the unscored CANDIDATE pairs of a run going out of the entities in $ids (a page of
// resolve_score_sources), with the predicates between the two. What comparing needs about each
// entity (names, neighbours, vectors, chunks) comes once per entity from resolve_score_sides, and
// the cosines and the shared chunk are computed from it in Python: read per pair, the vectors cost
// more than the rest of the page together. Recorded NOT_SAME_AS decisions are read once per stage
// (resolve_score_not_same_as). rel is the pair's relationship (elementId), which resolve_score_write
// finds again without expanding a's CANDIDATE edges of every run.
// Params: $run_id string, $ids list<string>.
UNWIND $ids AS id
MATCH (a:Entity {id: id})
// Expand from a (a pattern comprehension): left to the planner, the lean RETURN made it seek the
// run_id relationship index and join, a scan of the whole run per page.
UNWIND [(a)-[c:CANDIDATE]->(b:Entity) WHERE c.run_id = $run_id AND c.score IS NULL | [b, elementId(c)]] AS pair
WITH a, pair[0] AS b, pair[1] AS rel
RETURN a.id AS a, b.id AS b, rel, [(a)-[r:RELATED]-(b) | r.predicate] AS predicates
