// score_page: up to $limit unscored CANDIDATE pairs of a run, with what kgres.score.compare needs.
// Params: $run_id string, $limit int. A NOT_SAME_AS between any entities the two sides' mentions ever
// referred to counts (decisions survive merges); separate MATCHes so a REFERS_TO can serve twice.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id}]->(b:Entity)
WHERE c.score IS NULL
WITH a, b LIMIT $limit
RETURN a {.id, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .norm_type,
          neighbours: [(a)-[:RELATED]-(n:Entity) WHERE n <> b | n.id]} AS a,
       b {.id, .aliases, .key_core, .key_tokens, .key_acronym, .key_numbers, .norm_type,
          neighbours: [(b)-[:RELATED]-(n:Entity) WHERE n <> a | n.id]} AS b,
       EXISTS {
         MATCH (a)<-[:REFERS_TO]-(ma:Mention)
         MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(x)-[:NOT_SAME_AS]-(y)<-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
         MATCH (mb)-[:REFERS_TO]->(b)
       } AS not_same_as,
       [(a)-[r:RELATED]-(b) | r.predicate] AS predicates
