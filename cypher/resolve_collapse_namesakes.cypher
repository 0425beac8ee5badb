// resolve_collapse_namesakes: copies of $ids that a relation ties to an Entity whose name ends with
// their words and has more ("Murdoch" -[be the son of]- "Rupert Murdoch": that copy is a namesake of
// the longer name, so it cannot vouch for the other copies), with the relation's predicates
// (synonyms are filtered in kgres.resolve.collapse). Only an ending: "Ethanol fuel" -[be made of]-
// "ethanol" says what every "ethanol" is not, and keeps the copies together, apart from the fuel.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (c:Entity {id: id})-[r:RELATED]-(o:Entity)
WHERE o <> c AND size(c.key_tokens) > 0 AND size(o.key_tokens) > size(c.key_tokens)
  AND o.key_tokens[size(o.key_tokens) - size(c.key_tokens)..] = c.key_tokens
RETURN c.id AS id, collect(DISTINCT r.predicate) AS predicates
