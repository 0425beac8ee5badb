// resolve_block_acronym: pair each Entity in $ids with the Entities whose core key equals its acronym key,
// and with those whose acronym key equals its core key ("Large Language Models" -> "llm" <- "LLMs"),
// both ways, so that a new "LLMs" finds the resolved "Large Language Models" as well as the reverse.
// At most $k per entity and direction.
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_core IS NOT NULL
CALL (e) {
  MATCH (o:Entity {key_core: e.key_acronym})
  WHERE e.key_acronym <> e.key_core AND o <> e
  RETURN o ORDER BY o.id LIMIT $k
  UNION
  MATCH (o:Entity {key_acronym: e.key_core})
  WHERE o.key_acronym <> o.key_core AND o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: ['acronym']}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT 'acronym' IN o.methods] | SET old.methods = old.methods + 'acronym')
}
