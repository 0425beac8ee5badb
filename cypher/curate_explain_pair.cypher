// curate_explain_pair: what the match model compares about two current entities, as resolve_score_page
// returns it for a candidate pair, and the latest scored CANDIDATE between them (if any).
// Params: $a, $b strings (entity ids).
MATCH (a:Entity {id: $a})
MATCH (b:Entity {id: $b})
OPTIONAL MATCH (a)-[c:CANDIDATE]-(b)
WHERE c.match_weight IS NOT NULL
// newest first: by resolve, then by pass ("run.10" after "run.9", which text order reverses)
WITH a, b, c ORDER BY split(c.run_id, '.')[0] DESC, coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC
WITH a, b, collect(c)[0] AS c
RETURN EXISTS {
         MATCH (a)<-[:REFERS_TO]-(ma:Mention)
         MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(x)-[:NOT_SAME_AS]-(y)<-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
         MATCH (mb)-[:REFERS_TO]->(b)
       } AS not_same_as,
       [(a)-[r:RELATED]-(b) | r.predicate] AS predicates,
       CASE WHEN a.embedding IS NULL OR b.embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 END AS ego,
       CASE WHEN a.context_embedding IS NULL OR b.context_embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.context_embedding, b.context_embedding) - 1 END AS neighbour,
       EXISTS { (a)<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(:Chunk)<-[:IN_CHUNK]-(:Mention)-[:REFERS_TO]->(b) } AS same_chunk,
       c {.run_id, .score, .band, .match_weight, .signals_json} AS stored
