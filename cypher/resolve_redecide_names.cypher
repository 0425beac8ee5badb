// resolve_redecide_names: the multi-word name keys of an increment's entities that no entity outside the
// increment carries (what kgres.resolve.redecide reads to find the short forms a new name can be meant by).
// A name the graph already has joins the holder group it is in, which is not new with the increment, so
// it opens no short form (100 new generated mentions into 100k: 7 of 89 names; reading the short forms
// of all 89, and their holders, cost redecide 0.3 s).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE size(e.key_tokens) >= 2
  AND NOT EXISTS { MATCH (o:Entity {key_core: e.key_core}) WHERE NOT o.id IN $ids }
RETURN e.key_core AS core, e.key_tokens AS tokens, e.norm_type AS type, e.key_acronym AS acronym
