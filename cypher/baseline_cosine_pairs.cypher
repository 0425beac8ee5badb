// baseline_cosine_pairs: a run's CANDIDATE pairs with their text-embedding cosine, best first
// (Deg-Rag's union-find order), and each side's mention count.
// Params: $run_id string.
MATCH (a:Entity)-[:CANDIDATE {run_id: $run_id}]->(b:Entity)
WHERE a.embedding IS NOT NULL AND b.embedding IS NOT NULL
WITH a, b, 2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 AS cosine
RETURN a.id AS a, b.id AS b, cosine, coalesce(a.mention_count, 1) AS ma, coalesce(b.mention_count, 1) AS mb
ORDER BY cosine DESC, a, b
