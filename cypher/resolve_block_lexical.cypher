// resolve_block_lexical: pair each Entity in $ids with its $k best full-text neighbours (index entity_name
// over name and aliases; rare shared words score highest, BM25). e.search_key is the Lucene-escaped
// core tokens written by normalize. Types are not filtered here: score decides what a type clash means.
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.search_key IS NOT NULL AND e.search_key <> ''
CALL (e) {
  CALL db.index.fulltext.queryNodes('entity_name', e.search_key) YIELD node, score
  WHERE node <> e AND node:Entity
  RETURN node AS o ORDER BY score DESC, o.id LIMIT $k
}
WITH DISTINCT CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
CALL (a, b) {
  // One edge per pair and run. Not MERGE, nor a MATCH on run_id: the planner may seek the run_id
  // index for every row (quadratic as the run's edges grow); a pattern comprehension expands
  // between the two bound nodes only.
  WITH a, b, [o IN [(a)-[old:CANDIDATE]->(b) | old] WHERE o.run_id = $run_id] AS olds
  FOREACH (_ IN CASE WHEN size(olds) = 0 THEN [1] ELSE [] END |
    CREATE (a)-[:CANDIDATE {run_id: $run_id, methods: ['lexical']}]->(b))
  FOREACH (old IN [o IN olds WHERE NOT 'lexical' IN o.methods] | SET old.methods = old.methods + 'lexical')
}
