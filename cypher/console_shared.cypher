// console_shared: the neighbours two Entities share (RELATED either way), up to 25.
// Params: $a, $b entity ids.
MATCH (:Entity {id: $a})-[:RELATED]-(n:Entity)-[:RELATED]-(:Entity {id: $b})
RETURN DISTINCT n.id AS id, n.name AS name
ORDER BY name, id
LIMIT 25
