// resolve_embed_page: one page of Entities in id order after $after, with what their embedding text is
// built from and the key of the text they were last embedded from (kgres.embed decides staleness).
// Params: $after string ('' for the first page), $limit int.
MATCH (e:Entity)
WHERE e.id > $after
RETURN e.id AS id, e.name AS name, e.type AS type, e.description AS description,
       e.embedding_key AS embedding_key
ORDER BY e.id
LIMIT $limit
