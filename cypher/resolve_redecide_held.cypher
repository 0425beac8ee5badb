// resolve_redecide_held: which of $cores a current entity outside $ids (the increment's entities) carries:
// a holder group of a short form whose cores none of these has is new with the increment.
// Params: $cores, $ids list<string>.
UNWIND $cores AS core
MATCH (e:Entity {key_core: core})
WHERE NOT e.id IN $ids
RETURN DISTINCT core
