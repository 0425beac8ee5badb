// curate_split_find: what SPLIT names: a mention id, a retired (absorbed) entity id, or a retired entity's name.
// Params: $q string.
CALL () {
  MATCH (m:Mention {id: $q})-[r:REFERS_TO]->(e:Entity)
  RETURN 'mention' AS kind, m.id AS id, r.previous_entity_id AS previous, e.id AS current
  UNION
  MATCH (x:RetiredEntity)
  WHERE x.id = $q OR toLower(x.name) = toLower($q)
  RETURN 'entity' AS kind, x.id AS id, null AS previous, x.merged_into AS current
}
RETURN kind, id, previous, current
ORDER BY kind, id
