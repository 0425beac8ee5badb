// resolve_block_nicknames: pair each person's full name in $ids with the person names that carry its
// surname and, for its given name, one of that name's nicknames or the name it is a nickname of:
// "Bob Cratchit" with "Robert Cratchit", from the key_last index. Words rank such a pair behind the
// name's other namesakes (six Cratchits share the surname; "bob" and "robert" share no word) and the
// given-name rule kept it apart; the pair is for the match model to weigh (person_spelling).
// Returns one row per entity with its partners, as resolve_block_lexical.
// Params: $ids list<string>, $k int, $related map<string, list<string>> (kgres.resolve.score.names.nicknames:
// given name -> the names it is paired with).
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.norm_type = 'PERSON' AND size(e.key_tokens) >= 2 AND $related[e.key_first] IS NOT NULL
CALL (e) {
  MATCH (o:Entity {key_last: e.key_last})
  WHERE o <> e AND o.norm_type = 'PERSON' AND o.key_first IN $related[e.key_first]
    AND size(o.key_tokens) = size(e.key_tokens)
  WITH o ORDER BY coalesce(o.mention_count, 1) DESC, o.id LIMIT $k
  RETURN collect(o.id) AS others
}
WITH e, others WHERE size(others) > 0
RETURN e.id AS id, others
