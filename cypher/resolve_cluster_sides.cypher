// resolve_cluster_sides: the names (with aliases), keys, identifiers and mentions of entities whose
// groups clustering compares, and the entities each must stay apart from: those a NOT_SAME_AS
// separates (through every entity their mentions ever referred to) and those it is related to
// (with the predicates; synonyms are filtered in kgres.resolve.cluster).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e {.id, .name, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .key_title,
          .norm_type, .mention_count,
          attributes: [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20]} AS e,
       COLLECT {
         MATCH (e)<-[:REFERS_TO]-(ma:Mention)
         MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(:Entity|RetiredEntity)-[:NOT_SAME_AS]-(:Entity|RetiredEntity)
               <-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
         MATCH (mb)-[:REFERS_TO]->(b:Entity)
         WHERE b <> e
         RETURN DISTINCT b.id
       } AS apart,
       [(e)-[r:RELATED]-(b:Entity) WHERE b <> e | [b.id, r.predicate]] AS related
