// evaluate_entity_keys: name keys of entities as they were compared in a run, current or retired since.
// Params: $pieces list<list<string>> (as resolve_pairs_members; kgres.resolve.pairs.PairContext).
// Returns one row: es, the entities.
UNWIND $pieces AS piece
UNWIND piece AS id
CALL (id) {
  MATCH (e:Entity {id: id}) RETURN e
  UNION
  MATCH (e:RetiredEntity {id: id}) RETURN e
}
RETURN collect(e {.id, .name, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .key_title, .norm_type,
          attributes: [(e)<-[:REFERS_TO|REFERRED_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20]}) AS es
