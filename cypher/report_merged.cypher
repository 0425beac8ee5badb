// report_merged: the entities that hold more than one mention: their name, aliases, mention count
// and the types their mentions carry (the demo prints them).
// Params: none.
MATCH (e:Entity)
WHERE e.mention_count > 1
RETURN e.name AS entity, e.aliases AS aliases, e.mention_count AS mentions,
       [(m:Mention)-[:REFERS_TO]->(e) | m.type] AS types
ORDER BY e.name
