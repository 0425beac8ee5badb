// resolve_block_lexical_words: every Entity's names (its name and aliases, the fields of the entity_name
// full-text index) and its search key, for kgres.resolve.fuzzy to find the index's words near a query's.
// Params: none.
MATCH (e:Entity)
RETURN e.id AS id, e.search_key AS search_key, [e.name] + coalesce(e.aliases, []) AS names
