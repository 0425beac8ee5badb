// resolve_embed_clear_isolated: FastRP gives entities without neighbours a zero vector, which has no cosine;
// remove their structural and context embeddings so signals read them as absent.
// Params: none.
MATCH (e:Entity)
WHERE (e.fastrp IS NOT NULL OR e.context_embedding IS NOT NULL) AND NOT EXISTS { (e)-[:RELATED]-(:Entity) }
REMOVE e.fastrp, e.context_embedding
