// resolve_model_sample: a deterministic pseudo-random sample of $limit entities (ordered by a hash of
// id and $seed), with what the match model compares: name keys, attributes, description, neighbours,
// and the text and context embeddings (random pairs of them show what chance agreement looks like), as
// bytes (kgres.vector.pack).
// Params: $limit int, $seed string.
MATCH (e:Entity)
WITH e ORDER BY apoc.util.md5([e.id, $seed]) LIMIT $limit
RETURN e {.id, .name, .description, .mention_count, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers,
          .key_gender, .key_title, .norm_type,
          embedding: kgres.vector.pack(e.embedding), context_embedding: kgres.vector.pack(e.context_embedding),
          attributes: [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20],
          nbrs: [(e)-[:RELATED]-(n) | [n.id, coalesce(n.norm_type, '') + '|' + coalesce(n.key_core, '')]]} AS e
