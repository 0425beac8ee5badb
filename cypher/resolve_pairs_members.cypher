// resolve_pairs_members: keys and context of the Entities of several components, for kgres.score.compare.
// Neighbours exclude the entity's own component (members are compared with each other, not with
// their shared context twice).
// Returns one row: es, the entities (a record an entity cost the driver a message each: 100k generated
// mentions, 86k entities read by collapse, 5 s).
// Params: $pieces list<list<string>> (one id list per component).
UNWIND $pieces AS piece
UNWIND piece AS id
MATCH (e:Entity {id: id})
RETURN collect(e {.id, .name, .description, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .key_title, .norm_type, .mention_count,
          attributes: [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20],
          neighbours: [(e)-[:RELATED]-(n:Entity) WHERE NOT n.id IN piece | n.id],
          typed_neighbours: [(e)-[:RELATED]-(n:Entity) WHERE NOT n.id IN piece |
                             coalesce(n.norm_type, '') + '|' + coalesce(n.key_core, '')]}) AS es
