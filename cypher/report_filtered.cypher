// report_filtered: triples marked filtered (kept in the database, unused), lowest score first.
// Params: $limit int.
MATCH (s:Mention)-[t:RELATES {status: 'filtered'}]->(o:Mention)
RETURN s.name AS subject, t.predicate AS predicate, o.name AS object, t.reflection_score AS score,
       t.reflection_analysis AS analysis, t.filtered_by AS filtered_by
ORDER BY score, subject, predicate, object
LIMIT $limit
