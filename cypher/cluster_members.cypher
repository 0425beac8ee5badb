// cluster_members: keys and context of the Entities in $ids, for kgres.score.compare.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e {.id, .name, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .norm_type, .mention_count,
          neighbours: [(e)-[:RELATED]-(n:Entity) WHERE NOT n.id IN $ids | n.id],
          typed_neighbours: [(e)-[:RELATED]-(n:Entity) WHERE NOT n.id IN $ids |
                             coalesce(n.norm_type, '') + '|' + coalesce(n.key_core, '')]} AS e
