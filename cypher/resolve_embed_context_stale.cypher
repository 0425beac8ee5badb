// resolve_embed_context_stale: the ids of the entities whose context embeddings wait to be recomputed
// (resolve_embed_context_mark), collected into one list; retired ones too (their mark is cleared).
// Params: none.
MATCH (e:ContextStale)
RETURN collect(e.id) AS rows
