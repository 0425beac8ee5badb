// resolve_baseline_name_groups: entities sharing an exact name, the way GraphRAG (upper-cased title and
// type: $fold_case and $by_type true) and LightRAG (the name as written: both false) merge.
// Params: $fold_case bool, $by_type bool. Members ordered most mentions first, then id.
MATCH (e:Entity)
WITH e, CASE WHEN $fold_case THEN toUpper(trim(e.name)) ELSE trim(e.name) END AS name,
     CASE WHEN $by_type THEN coalesce(toUpper(trim(e.type)), '') ELSE '' END AS type
ORDER BY coalesce(e.mention_count, 1) DESC, e.id
WITH name, type, collect(e.id) AS ids
WHERE size(ids) > 1
RETURN ids
ORDER BY ids[0]
