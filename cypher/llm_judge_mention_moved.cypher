// llm_judge_mention_moved: the mention's recorded move is done (or a rule refused it).
// Params: $id string.
MATCH (m:Mention {id: $id})
REMOVE m.relink_pending
