// resolve_embed_page: one page of Entities in id order after $after, with what their embedding text is
// built from and the key of the text they were last embedded from (kgres.embed decides staleness),
// and the collapse key and mention count that say which copy of a name a collapse keeps
// (kgres.resolve.embed.encode_ahead), collected into one list (kgres.db.Database.collected).
// Params: $after string ('' for the first page), $limit int.
MATCH (e:Entity)
WHERE e.id > $after
WITH e
ORDER BY e.id
LIMIT $limit
RETURN collect({id: e.id, name: e.name, type: e.type, description: e.description,
                embedding_key: e.embedding_key, key_core: e.key_core, norm_type: e.norm_type,
                key_gender: e.key_gender, mention_count: e.mention_count}) AS rows
