// schema_status_counts: sizes of the graph, from the count store where possible.
// Params: none.
CALL () { MATCH (d:Document) RETURN count(d) AS documents }
CALL () { MATCH (c:Chunk) RETURN count(c) AS chunks }
CALL () { MATCH (m:Mention) RETURN count(m) AS mentions }
CALL () { MATCH (m:Mention {inferred: true}) RETURN count(m) AS inferred_mentions }
CALL () { MATCH ()-[r:RELATES]->() RETURN count(r) AS triples }
CALL () { MATCH (e:Entity) RETURN count(e) AS entities }
CALL () { MATCH ()-[r:RELATED]->() RETURN count(r) AS relations }
RETURN documents, chunks, mentions, inferred_mentions, triples, entities, relations
