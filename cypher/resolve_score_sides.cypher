// resolve_score_sides: what kgres.score.compare needs about each entity of a page of pairs, once per entity.
// attributes (mentions' attributes_json) carry identifiers (ORCID, Wikidata id...). Each neighbour
// comes as [id, "TYPE|name key", predicate], once per RELATED edge (the predicates between the two
// sides of a pair are cannot-link evidence): two unmerged duplicates usually have neighbours that are
// themselves unmerged duplicates, so the typed form overlaps where ids do not. RELATED joins
// Entities only, so the neighbour carries no label (nothing for the planner to scan by).
// The vectors (null when missing) and the ids of the chunks its mentions are in give the pair's
// cosines and same-chunk flag (kgres.resolve.score.stage.pages); the topology FastRP vector only with
// $structural (the rule scorer weighs it, the match model does not: 8% of what a side read carries).
// Vectors come as bytes (kgres.vector.pack, read by kgres.db.vectors.unpacked): one value each, not
// one per element.
// Params: $ids list<string>, $structural bool.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e {.id, .name, embedding: kgres.vector.pack(e.embedding),
          context_embedding: kgres.vector.pack(e.context_embedding),
          fastrp: CASE WHEN $structural THEN kgres.vector.pack(e.fastrp) END,
          .description, .mention_count, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .key_gender,
          .key_title, .norm_type,
          attributes: [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20],
          nbrs: [(e)-[r:RELATED]-(n) | [n.id, coalesce(n.norm_type, '') + '|' + coalesce(n.key_core, ''), r.predicate]],
          chunks: [(e)<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(c:Chunk) | c.id]} AS e
