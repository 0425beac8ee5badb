// resolve_block_attributes_of: resolve_block_attributes for the entities of $ids only (an increment's
// focus): those with attributes, with the attributes their mentions carry (at most 20 mentions' worth).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WITH e, [(e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL | m.attributes_json][0..20] AS attributes
WHERE size(attributes) > 0
RETURN e.id AS id, attributes
ORDER BY id
