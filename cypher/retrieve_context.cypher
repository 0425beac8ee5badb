// retrieve_context: the context for a ranked list of entities: each entity with its alias trail
// (the names its mentions carry and the decisions that joined them: stored on the entity by
// resolve_merge_refresh and ingest, walked from its mentions where it is not), the relations among them
// with the descriptions of their source triples, and the chunks that mention them, ranked by the
// summed weight of the entities each chunk mentions (HippoRAG's chunk ranking).
// Only active triples: RELATED is their projection, and descriptions are read from active RELATES.
// kgres.retrieve.context (the kgres plugin) computes the same result faster; retrieval uses it when
// the server has it (retrieve_context_procedure.cypher).
// Params: $ids list<string>, $weights list<float> (aligned with $ids), $relations int, $chunks int,
//         $chars int (per chunk text). The first line binds the inputs (kgres.db.cypher.chain).
WITH $ids AS ids, $weights AS weights
WITH ids, apoc.map.fromLists(ids, weights) AS weight
CALL (ids) {
  UNWIND range(0, size(ids) - 1) AS i
  MATCH (e:Entity {id: ids[i]})
  CALL (e) {
    WITH e WHERE e.trail_aliases IS NULL  // not stored (see resolve_merge_refresh): walk the mentions
    MATCH (m:Mention)-[r:REFERS_TO]->(e)
    WITH m.name AS alias, r.method AS method, r.run_id AS run_id, min(r.confidence) AS confidence, count(*) AS mentions
    ORDER BY mentions DESC, alias, method, run_id
    RETURN collect({alias: alias, method: method, run_id: run_id, confidence: toFloat(confidence),
                    mentions: mentions})[0..10] AS walked
  }
  WITH i, e, CASE WHEN e.trail_aliases IS NULL THEN walked
             ELSE [j IN range(0, size(e.trail_aliases) - 1) |
                   {alias: e.trail_aliases[j], method: e.trail_methods[j], run_id: e.trail_run_ids[j],
                    confidence: e.trail_confidences[j], mentions: e.trail_mentions[j]}] END AS trail
  RETURN collect(e {.id, .name, .type, .description, rank: i, alias_trail: trail}) AS entities
}
CALL (ids) {
  MATCH (a:Entity)-[r:RELATED]->(b:Entity)
  WHERE a.id IN ids AND b.id IN ids AND a <> b
  WITH a, b, r ORDER BY coalesce(r.weight, 1.0) DESC, a.id, b.id, r.predicate LIMIT $relations
  CALL (r) {
    UNWIND r.triple_ids[0..3] AS tid
    MATCH ()-[t:RELATES {id: tid}]->()
    WHERE t.status = 'active' AND t.description IS NOT NULL
    RETURN collect(t.description) AS descriptions, collect(t.id) AS triple_ids
  }
  RETURN collect({source: a.id, source_name: a.name, predicate: r.predicate, target: b.id, target_name: b.name,
                  weight: coalesce(r.weight, 1.0), descriptions: descriptions, triple_ids: r.triple_ids}) AS relations
}
CALL (ids, weight) {
  UNWIND ids AS id
  MATCH (:Entity {id: id})<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(c:Chunk)
  WITH c, collect(DISTINCT id) AS about
  WITH c, about, reduce(s = 0.0, x IN about | s + weight[x]) AS score
  ORDER BY score DESC, c.id LIMIT $chunks
  RETURN collect({id: c.id, document_id: c.document_id, text: left(c.text, $chars), score: score, entities: about}) AS chunks
}
RETURN entities, relations, chunks
