// llm_judge_mention_entity: the entity a mention refers to now.
// Params: $id string.
MATCH (:Mention {id: $id})-[:REFERS_TO]->(e:Entity)
RETURN e.id AS id
