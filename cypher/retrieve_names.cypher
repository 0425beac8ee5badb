// retrieve_names: the normalised names of seed entities, to seed the mention layer with.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
RETURN e.norm_name AS n
