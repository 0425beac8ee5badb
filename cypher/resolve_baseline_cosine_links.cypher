// resolve_baseline_cosine_links: HippoRAG-style synonym edges: each Entity in $ids gets SAME_AS to its $k
// nearest neighbours by text embedding with cosine >= $min_cosine (vector index scores are
// (1 + cos) / 2). Nothing is merged.
// Params: $ids list<string>, $k int, $min_cosine float, $run_id, $decided_by strings.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.embedding IS NOT NULL
CALL (e) {
  CALL db.index.vector.queryNodes('entity_embedding', $k + 1, e.embedding) YIELD node, score
  WHERE node <> e AND score >= ($min_cosine + 1.0) / 2.0
  RETURN node AS o, round(2 * score - 1, 4) AS cosine ORDER BY score DESC, o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b, cosine
CALL (a, b, cosine) {
  // Not MERGE, nor a MATCH on run_id: the planner may seek the run_id index per row (quadratic).
  WITH a, b, cosine WHERE NOT $run_id IN [(a)-[old:SAME_AS]->(b) | old.run_id]
  CREATE (a)-[s:SAME_AS {run_id: $run_id}]->(b)
  SET s.confidence = cosine, s.method = 'cosine', s.decided_by = $decided_by,
      s.decided_at = datetime(), s.evidence = '{"ego_cosine": ' + toString(cosine) + '}'
}
