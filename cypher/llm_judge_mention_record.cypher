// llm_judge_mention_record: store the mention-level judge's verdict on the mention (asked once). When the
// verdict moves the mention, the move is recorded first (relink_pending, relink_from: the entity it is
// in now, relink_target: where it goes), so a judge killed between the split and the merge is finished
// by the next one (llm_judge_mention_pending); llm_judge_mention_moved clears relink_pending.
// Params: $id string, $verdict string (JSON), $model string, $prompt_version string,
//         $from string, $target string or null (null: the mention stays).
MATCH (m:Mention {id: $id})
SET m.relink_verdict = $verdict, m.relink_model = $model, m.relink_prompt = $prompt_version,
    m.relink_at = datetime(), m.relink_from = $from, m.relink_target = $target,
    m.relink_pending = CASE WHEN $target IS NULL THEN null ELSE true END
