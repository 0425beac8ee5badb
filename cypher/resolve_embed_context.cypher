// resolve_embed_context: what the entities $ids' neighbours talk about: the unit-length sum of their RELATED
// neighbours' unit text embeddings (one term per edge), set as Entity.context_embedding in the server by the
// kgres plugin (kgres.embed.context), removed where no neighbour has a text embedding. Its cosine is the
// match model's neighbour cosine.
// Params: $ids list<string>.
CALL kgres.embed.context($ids) YIELD written, cleared
RETURN written, cleared
