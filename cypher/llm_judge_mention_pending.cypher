// llm_judge_mention_pending: mentions whose recorded move (llm_judge_mention_record) has not finished,
// with the entity they are in now and how many mentions it holds (1: the mention alone, as split left it).
// Params: none.
MATCH (m:Mention {relink_pending: true})-[:REFERS_TO]->(e:Entity)
RETURN m.id AS id, e.id AS current, m.relink_from AS from, m.relink_target AS target,
       m.relink_verdict AS verdict, m.relink_model AS model, COUNT { (:Mention)-[:REFERS_TO]->(e) } AS mentions
ORDER BY m.id
