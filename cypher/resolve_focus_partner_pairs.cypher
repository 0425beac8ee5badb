// resolve_focus_partner_pairs: the pairs a focused pass of a whole resolve scores again, without
// blocking either side again, after merges that involved the entities $ids (merged away or merged
// into in the last pass): each current entity (partner) that had a candidate pair, in one of $run_ids
// (the passes of this resolve so far), whose names say something (name_rule not in $unknown) with one
// of them, with the entity that one is now part of. "H. Lamport" had a pair with a copy of
// "Hedy Lamport" that merged into another: the merged "Hedy Lamport" now carries the names that
// matched, and its own blocking need not find "H. Lamport" again.
// Each entity's own edges are read, then filtered: with a predicate on the edges' run_id in the pattern,
// the planner may seek the run's whole candidate_run index for every id (it does when the index was
// sampled before the run wrote its edges: FEBRL's 5k records, 85 s instead of 0.1 s).
// Returns one row per entity with its partners (kgres.resolve.pipeline orders the pairs): one row per
// pair cost the driver a message each (100k generated mentions: 184k rows over ten passes).
// Params: $ids list<string>, $run_ids list<string>, $unknown list<string>.
UNWIND $ids AS id
CALL (id) {
  MATCH (e:Entity {id: id})
  RETURN e, e.id AS now
  UNION
  MATCH (e:RetiredEntity {id: id})
  RETURN e, e.merged_into AS now
}
WITH now, [(e)-[c:CANDIDATE]-(x:Entity) | [c, x]] AS edges
WHERE now IS NOT NULL AND EXISTS { MATCH (:Entity {id: now}) }
UNWIND edges AS edge
WITH now, edge[0] AS c, edge[1] AS x
WHERE c.run_id IN $run_ids AND c.name_rule IS NOT NULL AND NOT c.name_rule IN $unknown AND x.id <> now
RETURN now AS entity, collect(DISTINCT x.id) AS partners
