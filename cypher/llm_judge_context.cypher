// llm_judge_context: what the judge sees about one entity: names, type, description, a few source
// chunk excerpts and neighbours with their relation.
// Params: $id string, $chunks int, $chars int, $neighbours int.
MATCH (e:Entity {id: $id})
RETURN e.id AS id, e.name AS name, e.type AS type, coalesce(e.description, '') AS description,
       coalesce(e.aliases, []) AS aliases,
       [(e)<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(c:Chunk) | left(c.text, $chars)][0..$chunks] AS excerpts,
       [(e)-[r:RELATED]-(n:Entity) | r.predicate + ' ' + n.name][0..$neighbours] AS neighbours
