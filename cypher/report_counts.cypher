// report_counts: sizes of both layers and of the resolution state.
// Params: none.
CALL () { MATCH (m:Mention) RETURN count(m) AS mentions }
CALL () { MATCH (m:Mention {inferred: true}) RETURN count(m) AS inferred_mentions }
CALL () { MATCH ()-[r:RELATES]->() RETURN count(r) AS triples }
CALL () { MATCH ()-[r:RELATES]->() WHERE r.status <> 'active' RETURN count(r) AS filtered_triples }
CALL () { MATCH (e:Entity) RETURN count(e) AS entities }
CALL () { MATCH (e:RetiredEntity) RETURN count(e) AS retired_entities }
CALL () { MATCH ()-[r:RELATED]->() RETURN count(r) AS relations }
CALL () { MATCH ()-[s:SAME_AS]->() RETURN count(s) AS same_as_links }
CALL () { MATCH ()-[c:CANDIDATE {band: 'review'}]->() WHERE c.decision IS NULL RETURN count(c) AS review_pairs }
RETURN mentions, inferred_mentions, triples, filtered_triples, entities, retired_entities, relations,
       same_as_links, review_pairs
