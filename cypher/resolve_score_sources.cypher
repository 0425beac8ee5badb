// resolve_score_sources: the entities a run's unscored CANDIDATE pairs go out of, in id order, each
// with its pairs (relationship elementIds), through the run's relationship index. resolve_score_page
// seeks those pairs by elementId: expanded from the entity, a pair of this run was found among its
// CANDIDATE edges of every earlier run (100 new mentions into a resolved 20k graph: 1,571 pairs
// among 81,633 edges).
// Params: $run_id string.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id}]->(:Entity)
USING INDEX c:CANDIDATE(run_id)
WHERE c.score IS NULL
WITH a.id AS id, elementId(c) AS rel
ORDER BY id, rel
RETURN id, collect(rel) AS rels
ORDER BY id
