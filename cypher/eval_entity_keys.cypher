// eval_entity_keys: name keys of entities as they were compared in a run, current or retired since.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e {id: id})
WHERE e:Entity OR e:RetiredEntity
RETURN e {.id, .name, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .norm_type,
          attributes: [(e)<-[:REFERS_TO|REFERRED_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20]} AS e
