// resolve_embed_context_clear: remove the :ContextStale mark of $ids once their context embeddings are
// recomputed (on a retired entity too, which a later merge may have absorbed in between).
// Params: $ids list<string>.
MATCH (e:ContextStale)
WHERE e.id IN $ids
REMOVE e:ContextStale
