// llm_judge_mention_record: store the mention-level judge's verdict on the mention (asked once).
// Params: $id string, $verdict string (JSON), $model string, $prompt_version string.
MATCH (m:Mention {id: $id})
SET m.relink_verdict = $verdict, m.relink_model = $model, m.relink_prompt = $prompt_version,
    m.relink_at = datetime()
