// llm_cache_get: a cached LLM answer by key (hash of model, prompt version and input).
// Params: $key string.
MATCH (a:LLMAnswer {key: $key})
RETURN a.answer AS answer
