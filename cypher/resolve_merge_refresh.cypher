// resolve_merge_refresh: recompute what an Entity aggregates from its mentions: aliases (sorted distinct
// names), mention_count, and its alias trail as retrieval returns it (retrieve_context.cypher):
// the 10 largest groups of its mentions by (name, method, run_id), with their count and lowest
// confidence, in parallel lists trail_aliases / trail_methods / trail_run_ids / trail_confidences /
// trail_mentions. A group with a null field cannot be stored in a list: then the trail lists are
// removed and retrieval walks the mentions instead. Name, type and description stay the canonical
// entity's own. One walk over the mentions gives all three.
// Params: $ids list<string>.
UNWIND $ids AS id
MATCH (e:Entity {id: id})
CALL (e) {
  MATCH (m:Mention)-[r:REFERS_TO]->(e)
  WITH m.name AS alias, r.method AS method, r.run_id AS run_id, min(r.confidence) AS confidence, count(*) AS mentions
  ORDER BY mentions DESC, alias, method, run_id
  RETURN collect({alias: alias, method: method, run_id: run_id, confidence: confidence, mentions: mentions}) AS groups
}
WITH e, groups, groups[0..10] AS trail
WITH e, groups, CASE WHEN all(g IN trail WHERE g.alias IS NOT NULL AND g.method IS NOT NULL AND g.run_id IS NOT NULL
                                           AND g.confidence IS NOT NULL) THEN trail END AS trail
SET e.aliases = apoc.coll.sort(apoc.coll.toSet([g IN groups WHERE g.alias IS NOT NULL | g.alias])),
    e.mention_count = reduce(n = 0, g IN groups | n + g.mentions),
    e.trail_aliases = [g IN trail | g.alias], e.trail_methods = [g IN trail | g.method],
    e.trail_run_ids = [g IN trail | g.run_id], e.trail_confidences = [g IN trail | toFloat(g.confidence)],
    e.trail_mentions = [g IN trail | g.mentions]
