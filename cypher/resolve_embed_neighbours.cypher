// resolve_embed_neighbours: the entities in $ids and their RELATED neighbours: those whose context
// embeddings a change of the edges of $ids changes (kgres.resolve.embed.context_around).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
WITH collect(DISTINCT f.id) + collect(DISTINCT n.id) AS around
UNWIND around AS id
RETURN DISTINCT id
