// llm_judge_record: store the judge's verdict (or failure) on the candidate pairs of two entities.
// Params: $a, $b entity ids; $verdict (JSON) string; $model, $prompt_version strings.
MATCH (a:Entity {id: $a})-[c:CANDIDATE]-(b:Entity {id: $b})
SET c.judge = $verdict, c.judge_model = $model, c.judge_prompt = $prompt_version, c.judged_at = datetime()
RETURN count(c) AS n
