// resolve_baseline_cosine_pairs: a run's CANDIDATE pairs with their text-embedding cosine and each side's
// mention count, unordered: the caller ranks them (Deg-Rag's union-find order is best first).
// Sorting a million pairs here would hold them all in one transaction's memory.
// Params: $run_id string.
MATCH (a:Entity)-[c:CANDIDATE {run_id: $run_id}]->(b:Entity)
USING INDEX c:CANDIDATE(run_id)
WHERE a.embedding IS NOT NULL AND b.embedding IS NOT NULL
RETURN a.id AS a, b.id AS b, 2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 AS cosine,
       coalesce(a.mention_count, 1) AS ma, coalesce(b.mention_count, 1) AS mb
