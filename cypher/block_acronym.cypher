// block_acronym: pair each Entity in $ids whose acronym key equals another Entity's core key
// ("Large Language Models" -> "llm" <- "LLMs"). At most $k per entity.
// Params: $ids list<string>, $k int, $run_id string.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.key_acronym IS NOT NULL AND e.key_acronym <> e.key_core
CALL (e) {
  MATCH (o:Entity {key_core: e.key_acronym})
  WHERE o <> e
  RETURN o ORDER BY o.id LIMIT $k
}
WITH CASE WHEN e.id < o.id THEN e ELSE o END AS a, CASE WHEN e.id < o.id THEN o ELSE e END AS b
MERGE (a)-[c:CANDIDATE {run_id: $run_id}]->(b)
ON CREATE SET c.methods = []
SET c.methods = CASE WHEN 'acronym' IN c.methods THEN c.methods ELSE c.methods + 'acronym' END
