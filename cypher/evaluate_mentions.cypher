// evaluate_mentions: every mention's input id, name, type and current entity, for kgres eval.
// Params: none. Streamed.
MATCH (m:Mention)-[:REFERS_TO]->(e:Entity)
RETURN m.source_key AS key, m.name AS name, m.type AS type, e.id AS entity
