// retrieve_mentions: the same question asked of the unresolved mention layer, as an exact-string
// system sees it (GraphRAG / LightRAG merge mentions by name): nodes are distinct mention names,
// seeded by $names, expanded one or two hops ($hops) over active RELATES, with their chunks.
// The baseline that resolution is measured against.
// Params: $names list<string> (normalised names), $hops int, $limit int, $relations int, $chunks int, $chars int.
// Triples are read from the named mentions' own edges, their status checked after: with the status in
// the pattern, the planner may scan every active triple of the graph (the relates_status index).
MATCH (s:Mention) WHERE s.norm_name IN $names
WITH collect(DISTINCT s.norm_name) AS frontier
CALL (frontier) {
  MATCH (m:Mention) WHERE m.norm_name IN frontier
  UNWIND [(m)-[t:RELATES]-(n:Mention) | [t.status, n.norm_name]] AS edge
  WITH edge WHERE edge[0] = 'active'
  RETURN collect(DISTINCT edge[1]) AS hop1
}
CALL (hop1) {
  MATCH (m:Mention) WHERE $hops > 1 AND m.norm_name IN hop1
  UNWIND [(m)-[t:RELATES]-(n:Mention) | [t.status, n.norm_name]] AS edge
  WITH edge WHERE edge[0] = 'active'
  RETURN collect(DISTINCT edge[1]) AS hop2
}
WITH frontier, (frontier + [x IN apoc.coll.toSet(hop1 + hop2) WHERE NOT x IN frontier])[0..$limit] AS names
CALL (names) {
  MATCH (a:Mention) WHERE a.norm_name IN names
  UNWIND [(a)-[t:RELATES]->(b:Mention) | [t, b.norm_name]] AS edge
  WITH a, edge[0] AS t, edge[1] AS target
  WHERE target IN names AND t.status = 'active'
  WITH a.norm_name AS source, t.predicate AS predicate, target, collect(t) AS ts
  ORDER BY size(ts) DESC, source, target, predicate LIMIT $relations
  RETURN collect({source: source, source_name: source, predicate: predicate, target: target, target_name: target,
                  weight: toFloat(size(ts)),
                  descriptions: [t IN ts[0..3] WHERE t.description IS NOT NULL | t.description],
                  triple_ids: [t IN ts | t.id]}) AS relations
}
CALL (names, frontier) {
  MATCH (m:Mention)-[:IN_CHUNK]->(c:Chunk) WHERE m.norm_name IN names
  WITH c, collect(DISTINCT m.norm_name) AS about
  WITH c, about, size([x IN about WHERE x IN frontier]) AS seeds
  ORDER BY seeds DESC, size(about) DESC, c.id LIMIT $chunks
  RETURN collect({id: c.id, document_id: c.document_id, text: left(c.text, $chars), score: toFloat(seeds),
                  entities: about}) AS chunks
}
RETURN [i IN range(0, size(names) - 1) | {id: names[i], name: names[i], type: null, description: null, rank: i,
        alias_trail: []}] AS entities, relations, chunks
