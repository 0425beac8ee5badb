// resolve_redecide_names: the multi-word name keys of an increment's entities (what kgres.resolve.redecide
// reads to find the short forms a new name can be meant by).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE size(e.key_tokens) >= 2
RETURN e.key_core AS core, e.key_tokens AS tokens, e.norm_type AS type, e.key_acronym AS acronym
