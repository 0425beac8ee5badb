// resolve_block_holders: pair each person's short form in $ids (a single name, or an initial and
// surname: kgres.resolve.ambiguity.short_key) with the $k most-mentioned longer person names it can
// stand for, its holders (kgres.resolve.ambiguity.holder_keys), from the key_first and key_last indexes:
// "Conway" and "J. Conway" with "Jane Conway". Lexical and semantic blocking rank a short form's partners
// by words and vectors, where a common surname's many holders crowd out the one it means; scoring
// decides between them (the holder table says when the name is ambiguous). Untyped single words
// (open-IE phrases: "India" / "India Today") are left to those strategies: paired with every name they
// begin or end, CESI-ambiguous lost 13 points of recall to merges that then kept true clusters apart.
// Returns one row per entity with its partners, as resolve_block_lexical.
// Params: $ids list<string>, $k int.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
WHERE e.norm_type = 'PERSON' AND (size(e.key_tokens) = 1 OR (size(e.key_tokens) = 2 AND size(e.key_tokens[0]) = 1))
CALL (e) {
  WITH e, e.key_tokens[-1] AS last, CASE WHEN size(e.key_tokens) = 2 THEN e.key_tokens[0] END AS initial
  CALL (e, last, initial) {
    MATCH (h:Entity {key_last: last})
    RETURN h
    UNION
    MATCH (h:Entity {key_first: last})
    WHERE initial IS NULL
    RETURN h
  }
  WITH e, h, initial
  WHERE h <> e AND h.norm_type = 'PERSON'
    AND size(h.key_first) > 1  // "J. Conway" holds no short form
    AND (initial IS NULL OR h.key_first STARTS WITH initial)
  WITH h ORDER BY coalesce(h.mention_count, 1) DESC, h.id LIMIT $k
  RETURN collect(h.id) AS others
}
WITH e, others WHERE size(others) > 0
RETURN e.id AS id, others
