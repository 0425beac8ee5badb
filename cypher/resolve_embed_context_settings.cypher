// resolve_embed_context_settings: the length of one context embedding of the graph and of one text
// embedding (null where no entity has one). They differ where an earlier kgres wrote the context
// embeddings (a FastRP projection to fastrp_dimensions), which kgres.resolve.embed then recomputes whole.
// Params: none.
CALL () {
  OPTIONAL MATCH (e:Entity) WHERE e.context_embedding IS NOT NULL
  RETURN size(e.context_embedding) AS context LIMIT 1
}
CALL () {
  OPTIONAL MATCH (e:Entity) WHERE e.embedding IS NOT NULL
  RETURN size(e.embedding) AS text LIMIT 1
}
RETURN context, text
