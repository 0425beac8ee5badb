// report_scores: histogram of one run's candidate pairs by band, in score buckets of 0.05, each pair
// counted once, at its newest score in the run (its last pass: "run.10" after "run.9"). A pass writes
// an edge only when its verdict changed, so counting edges would count a pair once per new verdict.
// Params: $run_id string.
MATCH (a)-[c:CANDIDATE]->(b)
WHERE (c.run_id = $run_id OR c.run_id STARTS WITH $run_id + '.') AND c.score IS NOT NULL
WITH a, b, c ORDER BY coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC
WITH a, b, head(collect(c)) AS c
WITH c.band AS band, toInteger(floor(c.score * 20)) AS bucket
RETURN band, CASE WHEN bucket > 19 THEN 19 ELSE bucket END AS bucket, count(*) AS pairs
ORDER BY band, bucket
