// evaluate_cluster_sides: as resolve_cluster_sides, for entities current or retired since (the threshold
// sweep re-clusters a finished run's pairs). As resolve_cluster_sides: the names (with aliases), keys, identifiers and mentions of entities whose
// groups clustering compares, and the entities each must stay apart from: those a NOT_SAME_AS
// separates (through every entity their mentions ever referred to) and those it is related to
// (with the predicates; synonyms are filtered in kgres.resolve.cluster).
// Params: $ids list<string>.
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id}) RETURN e
  UNION
  MATCH (e:RetiredEntity {id: id}) RETURN e
}
RETURN e {.id, .name, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender, .key_title,
          .norm_type, .mention_count,
          attributes: [(e)<-[:REFERS_TO|REFERRED_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20]} AS e,
       COLLECT {
         MATCH (e)<-[:REFERS_TO|REFERRED_TO]-(ma:Mention)
         MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(:Entity|RetiredEntity)-[:NOT_SAME_AS]-(:Entity|RetiredEntity)
               <-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
         MATCH (mb)-[:REFERS_TO|REFERRED_TO]->(b)
         WHERE b <> e AND (b:Entity OR b:RetiredEntity)
         RETURN DISTINCT b.id
       } AS apart,
       [(e)<-[:REFERS_TO|REFERRED_TO]-(:Mention)-[r:RELATES]-(:Mention)-[:REFERS_TO|REFERRED_TO]->(b) WHERE b <> e | [b.id, r.predicate]] AS related
