// retrieve_serve_mentions: what each mention of $ids refers to now (POST /mentions answers with it).
// Params: $ids list<string> (namespaced mention ids).
UNWIND $ids AS id
MATCH (m:Mention {id: id})-[r:REFERS_TO]->(e:Entity)
RETURN m.source_key AS key, e.id AS entity_id, e.name AS entity_name, r.confidence AS confidence,
       r.method AS method, r.run_id AS run_id
