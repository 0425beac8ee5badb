// report_scores: histogram of the candidate scores of one run (and its passes) by band, in
// buckets of 0.05.
// Params: $run_id string.
MATCH ()-[c:CANDIDATE]->()
WHERE (c.run_id = $run_id OR c.run_id STARTS WITH $run_id + '.') AND c.score IS NOT NULL
WITH c.band AS band, toInteger(floor(c.score * 20)) AS bucket
RETURN band, CASE WHEN bucket > 19 THEN 19 ELSE bucket END AS bucket, count(*) AS pairs
ORDER BY band, bucket
