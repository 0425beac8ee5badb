// resolve_embed_page: one page of Entities in id order after $after, with what their embedding text is
// built from and the key of the text they were last embedded from (kgres.embed decides staleness),
// collected into one list (kgres.db.Database.collected).
// Params: $after string ('' for the first page), $limit int.
MATCH (e:Entity)
WHERE e.id > $after
WITH e
ORDER BY e.id
LIMIT $limit
RETURN collect({id: e.id, name: e.name, type: e.type, description: e.description,
                embedding_key: e.embedding_key}) AS rows
