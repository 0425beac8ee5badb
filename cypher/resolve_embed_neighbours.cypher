// resolve_embed_neighbours: the entities in $ids and their RELATED neighbours (whose context embeddings
// new entities change).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
WITH collect(DISTINCT f.id) + collect(DISTINCT n.id) AS around
UNWIND around AS id
RETURN DISTINCT id
