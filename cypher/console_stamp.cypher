// console_stamp: the state of some Entities, and of the pairs among them, that a console page showed;
// an action compares it with the page's copy to report a change made meanwhile instead of overwriting it.
// Params: $ids list<string> (entity ids).
UNWIND $ids AS id
OPTIONAL MATCH (e:Entity {id: id})
OPTIONAL MATCH (r:RetiredEntity {id: id})
RETURN id, e IS NOT NULL AS current, r.merged_into AS merged_into,
       CASE WHEN e IS NULL THEN NULL ELSE COUNT { (:Mention)-[:REFERS_TO]->(e) } END AS mentions,
       CASE WHEN e IS NULL THEN [] ELSE
         [(e)-[c:CANDIDATE]-(o:Entity) WHERE o.id IN $ids | o.id + ':' + coalesce(c.decision, '') + ':' +
                                                            coalesce(c.deferred_by, '')] END AS pairs,
       CASE WHEN e IS NULL THEN [] ELSE [(e)-[:NOT_SAME_AS]-(o) WHERE o.id IN $ids | o.id] END AS apart
ORDER BY id
