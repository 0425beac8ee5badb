// llm_cache_put: remember an LLM answer, so a rerun costs nothing.
// Params: $key, $model, $prompt_version, $answer (JSON) strings; $tokens int.
MERGE (a:LLMAnswer {key: $key})
ON CREATE SET a.model = $model, a.prompt_version = $prompt_version, a.answer = $answer, a.tokens = $tokens,
              a.created_at = datetime()
