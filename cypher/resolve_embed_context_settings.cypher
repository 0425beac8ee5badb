// resolve_embed_context_settings: how the graph's context embeddings were written, for recomputing some
// of them after a rollback or a split (kgres.resolve.embed.refresh_context): the dimension of one of
// them (null when no entity has one), and the newest resolution run's config (its embed.fastrp_seed).
// Params: none.
CALL () {
  OPTIONAL MATCH (e:Entity) WHERE e.context_embedding IS NOT NULL
  RETURN size(e.context_embedding) AS dimensions LIMIT 1
}
CALL () {
  OPTIONAL MATCH (r:ResolutionRun) WHERE r.config CONTAINS '"fastrp_seed"'
  RETURN r.config AS config ORDER BY r.started_at DESC LIMIT 1
}
RETURN dimensions, config
