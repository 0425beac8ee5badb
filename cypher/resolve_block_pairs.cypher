// resolve_block_pairs: write a run's candidate pairs (kgres.resolve.block), unscored, one edge per pair
// and run, directed from the smaller id; `methods` lists every strategy that proposed it. Idempotent:
// a pair the run already has gains the methods it lacked.
// Params: $pairs list<[id_a, id_b, methods list<string>]> (id_a < id_b), $run_id string.
UNWIND $pairs AS p
MATCH (a:Entity {id: p[0]})
MATCH (b:Entity {id: p[1]})
CALL (a, b, p) {
  // Not MERGE, nor a MATCH on run_id: the planner may seek the run_id index for every row (quadratic
  // as the run's edges grow); a pattern comprehension expands between the two bound nodes only.
  WITH a, b, p, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: p[2]}]->(b))
  FOREACH (old IN olds | SET old.methods = old.methods + [m IN p[2] WHERE NOT m IN old.methods])
}
