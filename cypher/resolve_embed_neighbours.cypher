// resolve_embed_neighbours: the entities in $ids and their RELATED neighbours of at most $max_degree
// neighbours (whose context embeddings new entities change; see resolve_embed_project_around).
// Params: $ids list<string>, $max_degree int.
UNWIND $ids AS id
MATCH (f:Entity {id: id})
OPTIONAL MATCH (f)-[:RELATED]-(n:Entity)
WHERE COUNT { (n)-[:RELATED]-() } <= $max_degree
WITH collect(DISTINCT f.id) + collect(DISTINCT n.id) AS around
UNWIND around AS id
RETURN DISTINCT id
