// llm_reflect_write: store reflection scores on raw triples; below $threshold a triple is marked
// 'filtered' (never deleted) with who filtered it and why. Returns the entities whose RELATED
// edges must be rebuilt and how many triples were filtered.
// Params: $rows list<{id, score, analysis}>, $threshold float, $model, $prompt_version strings.
UNWIND $rows AS row
MATCH (s:Mention)-[t:RELATES {id: row.id}]->(o:Mention)
SET t.reflection_score = row.score, t.reflection_analysis = row.analysis, t.reflection_model = $model,
    t.reflection_prompt = $prompt_version, t.reflected_at = datetime()
FOREACH (_ IN CASE WHEN row.score < $threshold THEN [1] ELSE [] END |
  SET t.status = 'filtered', t.filtered_by = 'llm:' + $model, t.filtered_at = datetime())
WITH s, o, row
MATCH (s)-[:REFERS_TO]->(es:Entity)
MATCH (o)-[:REFERS_TO]->(eo:Entity)
RETURN collect(DISTINCT es.id) + collect(DISTINCT eo.id) AS affected,
       sum(CASE WHEN row.score < $threshold THEN 1 ELSE 0 END) AS filtered
