// resolve_embed_context_write: set context embeddings computed around new entities; a null vector (an
// entity without neighbours) removes it, as resolve_embed_clear_isolated does.
// Params: $rows list<{id string, v list<float> or null}>.
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.context_embedding = row.v
