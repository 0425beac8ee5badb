// resolve_embed_context_mark: label the Entities in $ids :ContextStale before a refresh rebuilds their
// RELATED edges, so that the context embeddings the new edges change are recomputed even if the
// command is killed between the two (kgres.resolve.merge.recompute_marked_contexts clears the
// mark).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
SET e:ContextStale
