// llm_summarize_write: store an entity's summary (its mentions keep their own descriptions) with the
// model, prompt version and the key of the descriptions it summarises.
// Params: $rows list<{id, summary, key}>, $model, $prompt_version strings.
UNWIND $rows AS row
MATCH (e:Entity {id: row.id})
SET e.summary = row.summary, e.summary_key = row.key, e.summary_model = $model,
    e.summary_prompt = $prompt_version, e.summarized_at = datetime()
