// report_reflection: how many reflected triples fall in each 0.1 score bucket.
// Params: none.
MATCH ()-[t:RELATES]->()
WHERE t.reflection_score IS NOT NULL
WITH CASE WHEN t.reflection_score >= 1.0 THEN 9 ELSE toInteger(floor(t.reflection_score * 10)) END AS bucket
RETURN bucket, count(*) AS triples
ORDER BY bucket
