// llm_judge_mention_candidates: the best-supported current entity for each holder name key.
// Params: $cores list<string>.
UNWIND $cores AS core
MATCH (e:Entity {key_core: core})
WITH core, e ORDER BY e.mention_count DESC, e.id
WITH core, head(collect(e.id)) AS id
RETURN core, id
