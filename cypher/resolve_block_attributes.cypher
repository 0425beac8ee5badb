// resolve_block_attributes: every entity with the attributes its mentions carry (attributes_json,
// at most 20 mentions' worth), for attribute blocking (kgres.resolve.block pairs entities that share
// rare values). Streamed in id order.
// Params: none.
MATCH (e:Entity)
WITH e, [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20] AS attributes
WHERE size(attributes) > 0
RETURN e.id AS id, attributes
ORDER BY id
