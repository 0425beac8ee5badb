// resolve_rollback_revived: retire again, as they were, the entities $run_id revived (resolve_redecide)
// once resolve_rollback_run has moved their mentions back: the retired entity's properties come back
// from revived_from (a null there removes what the revival set), its RELATED edges go.
// Params: $run_id string. Returns how many were retired again.
MATCH (x:Entity {revived_by_run: $run_id})
WHERE NOT EXISTS { (:Mention)-[:REFERS_TO]->(x) }
CALL (x) {
  MATCH (x)-[rel:RELATED]-()
  DELETE rel
}
WITH x, apoc.convert.fromJsonMap(x.revived_from) AS was
REMOVE x:Entity:Stale
SET x:RetiredEntity
SET x += was
REMOVE x.revived_by_run, x.revived_from
RETURN count(x) AS retired
