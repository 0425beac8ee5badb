// resolve_block_semantic_keys: every embedded Entity's id and the key of the text and model its
// embedding came from (null when it was set by other means), in id order: the passes of one resolve
// read again only the embeddings whose key changed (see block.VectorCache). Collected into one list
// (kgres.db.Database.collected).
// Params: none.
MATCH (e:Entity)
WHERE e.embedding IS NOT NULL
WITH e.id AS id, e.embedding_key AS key
ORDER BY id
RETURN collect({id: id, key: key}) AS rows
