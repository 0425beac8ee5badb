// resolve_redecide_standing: those of the retired entities $ids that an automatic merge ($decided_by,
// method 'model' or 'rules') put into the entity they are in, where that merge's moves still stand (the
// mentions refer to where it put them).
// Params: $ids list<string>, $decided_by string.
UNWIND $ids AS id
MATCH (x:RetiredEntity {id: id})
MATCH (c:Entity {id: x.merged_into})
// c's own edges, filtered after: on n.run_id in a pattern the planner may seek every REFERS_TO of that
// run (the refers_to_run index; a collapse run moves most mentions of the graph) per retired entity
WHERE any(n IN [(:Mention)-[n:REFERS_TO]->(c) | n]
          WHERE n.run_id = x.retired_by_run AND n.previous_entity_id = x.id AND n.decided_by = $decided_by
                AND n.method IN ['model', 'rules'])
RETURN x.id AS id
ORDER BY id
