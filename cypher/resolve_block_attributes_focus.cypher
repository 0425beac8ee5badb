// resolve_block_attributes_focus: how many of the entities in $ids carry attributes (attributes_json on
// a mention). Attribute blocking pairs only those, so with none it skips reading every entity's.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE EXISTS { (e)<-[:REFERS_TO]-(m:Mention) WHERE m.attributes_json IS NOT NULL }
RETURN count(e) AS carrying
