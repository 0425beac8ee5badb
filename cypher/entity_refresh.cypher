// entity_refresh: recompute what an Entity aggregates from its mentions: aliases (sorted distinct
// names) and mention_count. Name, type and description stay the canonical entity's own.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
CALL (e) {
  MATCH (m:Mention)-[:REFERS_TO]->(e)
  RETURN apoc.coll.sort(apoc.coll.toSet(collect(m.name))) AS aliases, count(m) AS n
}
SET e.aliases = aliases, e.mention_count = n
