// resolve_ambiguity_holders_of: resolve_ambiguity_holders for the short forms an increment asks about
// (kgres.ambiguity.Ambiguity.lazy): the multi-word names whose first or last word is one of $words (a
// person's short forms: "holmes", "j holmes") or whose acronym is one of $acronyms, from the indexes;
// rows as resolve_ambiguity_holders (the caller files each under the keys it asked for).
// Params: $words list<string>, $acronyms list<string> (both cut as normalize cuts indexed keys).
CALL {
  UNWIND $words AS w
  MATCH (e:Entity {key_first: w})
  RETURN e
  UNION
  UNWIND $words AS w
  MATCH (e:Entity {key_last: w})
  RETURN e
  UNION
  UNWIND $acronyms AS a
  MATCH (e:Entity {key_acronym: a})
  RETURN e
}
WITH e
WHERE size(e.key_tokens) >= 2
RETURN e.norm_type AS type, e.key_core AS core, e.key_tokens AS tokens, e.key_acronym AS acronym,
       sum(coalesce(e.mention_count, 1)) AS mentions
ORDER BY type, core
