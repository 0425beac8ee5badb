// resolve_block_acronym: pair each Entity in $ids with the Entities whose core key equals its acronym key,
// and with those whose acronym key equals its core key ("Large Language Models" -> "llm" <- "LLMs"),
// both ways, so that a new "LLMs" finds the resolved "Large Language Models" as well as the reverse.
// At most $k per entity and direction.
// Returns one row per entity with its partners (kgres.resolve.block orders and deduplicates the pairs):
// one row per pair cost the driver a message each (10k cesi entities: 1.5 s of 4 s for exact pairs).
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
RETURN e.id AS id, collect(o.id) AS others
