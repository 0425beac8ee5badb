// resolve_score_page: the unscored CANDIDATE pairs of a run going out of the entities in $ids (a page of
// resolve_score_sources), with what kgres.score.compare needs about each pair (what it needs about
// each entity comes once per page from resolve_score_sides).
// Params: $run_id string, $ids list<string>. A NOT_SAME_AS between any entities the two sides' mentions ever
// referred to counts (decisions survive merges); separate MATCHes so a REFERS_TO can serve twice.
// Cosines are returned in [-1, 1] (Neo4j's vector similarity is (1 + cos) / 2), null when a vector
// is missing.
UNWIND $ids AS id
MATCH (a:Entity {id: id})
MATCH (a)-[c:CANDIDATE {run_id: $run_id}]->(b:Entity)
WHERE c.score IS NULL
RETURN a.id AS a, b.id AS b,
       EXISTS {
         MATCH (a)<-[:REFERS_TO]-(ma:Mention)
         MATCH (ma)-[:REFERS_TO|REFERRED_TO]->(x)-[:NOT_SAME_AS]-(y)<-[:REFERS_TO|REFERRED_TO]-(mb:Mention)
         MATCH (mb)-[:REFERS_TO]->(b)
       } AS not_same_as,
       [(a)-[r:RELATED]-(b) | r.predicate] AS predicates,
       CASE WHEN a.embedding IS NULL OR b.embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 END AS ego,
       CASE WHEN a.context_embedding IS NULL OR b.context_embedding IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.context_embedding, b.context_embedding) - 1 END AS neighbour,
       CASE WHEN a.fastrp IS NULL OR b.fastrp IS NULL THEN null
            ELSE 2 * vector.similarity.cosine(a.fastrp, b.fastrp) - 1 END AS structural,
       EXISTS { (a)<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(:Chunk)<-[:IN_CHUNK]-(:Mention)-[:REFERS_TO]->(b) } AS same_chunk
