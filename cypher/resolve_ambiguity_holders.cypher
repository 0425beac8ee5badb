// resolve_ambiguity_holders: every distinct multi-word name key with its mentions, for kgres.ambiguity (which
// short forms several entities could carry). One map per (type, core): bounded by distinct names; collected
// into one list (kgres.db.Database.collected).
// Params: none.
MATCH (e:Entity)
WHERE size(e.key_tokens) >= 2
WITH e.norm_type AS type, e.key_core AS core, e.key_tokens AS tokens, e.key_acronym AS acronym,
     sum(coalesce(e.mention_count, 1)) AS mentions
ORDER BY type, core
RETURN collect({type: type, core: core, tokens: tokens, acronym: acronym, mentions: mentions}) AS rows
