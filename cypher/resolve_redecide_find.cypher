// resolve_redecide_find: the retired entities named by one of the short forms $cores that an automatic merge
// ($decided_by, method 'model' or 'rules') put into an entity that is still current, where that merge's
// moves still stand (the mentions refer to where it put them), with the keys of both sides.
// Params: $cores list<string>, $decided_by string.
UNWIND $cores AS core
MATCH (x:RetiredEntity {key_core: core})
MATCH (c:Entity {id: x.merged_into})
// c's own edges, filtered after: on n.run_id in a pattern the planner may seek every REFERS_TO of that
// run (the refers_to_run index; a collapse run moves most mentions of the graph) per retired entity
WHERE any(n IN [(:Mention)-[n:REFERS_TO]->(c) | n]
          WHERE n.run_id = x.retired_by_run AND n.previous_entity_id = x.id AND n.decided_by = $decided_by
                AND n.method IN ['model', 'rules'])
RETURN c.id AS holder, c.key_core AS holder_core,
       x.id AS id, x.key_core AS core, x.key_tokens AS tokens, x.norm_type AS type, x.mention_count AS mentions
ORDER BY id
