// resolve_unindexed: how many entities the runs $run_ids retired while they had a text embedding: the
// vectors their merges deleted from the entity_embedding index (an entity a collapse retired before it
// was ever embedded left nothing there).
// Params: $run_ids list<string>.
MATCH (e:RetiredEntity)
WHERE e.retired_by_run IN $run_ids AND e.embedding IS NOT NULL
RETURN count(e) AS n
