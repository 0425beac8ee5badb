// console_search: current Entities whose name or alias, or one of whose mentions' names, matches a
// full-text query (the entity_name and mention_name indexes), best first.
// Params: $q string (Lucene syntax, escaped by the caller), $limit int.
CALL () {
  CALL db.index.fulltext.queryNodes('entity_name', $q, {limit: $limit}) YIELD node, score
  RETURN node AS e, score
  UNION ALL
  CALL db.index.fulltext.queryNodes('mention_name', $q, {limit: $limit}) YIELD node, score
  MATCH (node)-[:REFERS_TO]->(e:Entity)
  RETURN e, score * 0.9 AS score
}
WITH e, max(score) AS score
RETURN e.id AS id, e.name AS name, e.type AS type, e.mention_count AS mentions, e.aliases AS aliases, score
ORDER BY score DESC, mentions DESC, id
LIMIT $limit
