// resolve_block_pairs: write candidate pairs that Python chose (k-means blocks ranked by cosine;
// entities sharing rare attribute values), as the per-entity strategies write theirs.
// Params: $pairs list<list<string>> ([id_a, id_b] with id_a < id_b), $method string, $run_id string.
UNWIND $pairs AS p
MATCH (a:Entity {id: p[0]})
MATCH (b:Entity {id: p[1]})
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: [$method]}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT $method IN o.methods] | SET old.methods = old.methods + $method)
}
