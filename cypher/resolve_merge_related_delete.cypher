// resolve_merge_related_delete: drop the RELATED projection edges touching the Entities in $ids (before a rebuild).
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (:Entity {id: id})-[r:RELATED]-()
DELETE r
