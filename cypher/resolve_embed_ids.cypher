// resolve_embed_ids: resolve_embed_page for the entities in $ids (an incremental resolve), in id order.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.id AS id, e.name AS name, e.type AS type, e.description AS description,
       e.embedding_key AS embedding_key, e.key_core AS key_core, e.norm_type AS norm_type,
       e.key_gender AS key_gender, e.mention_count AS mention_count
ORDER BY id
