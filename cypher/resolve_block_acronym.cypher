// resolve_block_acronym: pair each Entity in $ids with the Entities whose core key equals its acronym key,
// and with those whose acronym key equals its core key ("Large Language Models" -> "llm" <- "LLMs"),
// both ways, so that a new "LLMs" finds the resolved "Large Language Models" as well as the reverse.
// At most $k per entity and direction.
// Returns each pair once, smaller id first (kgres.resolve.block collects and writes them).
// Params: $ids list<string>, $k int.
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
RETURN a.id AS a, b.id AS b
