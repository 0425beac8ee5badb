// retrieve_stamp: what a retrieval projection or community build depends on; when any of it
// changes they are rebuilt. Counts, the runs, and the triples reflection filtered (one scan of
// RELATES: callers cache the stamp for a few seconds).
// Params: none.
CALL () { MATCH (e:Entity) RETURN count(e) AS entities }
CALL () { MATCH ()-[r:RELATED]->() RETURN count(r) AS related }
CALL () { OPTIONAL MATCH (r:ResolutionRun) RETURN count(r) AS runs, max(toString(r.finished_at)) AS last_run,
          sum(CASE r.status WHEN 'rolled_back' THEN 1 ELSE 0 END) AS rolled_back }
CALL () { MATCH ()-[t:RELATES]->() WHERE t.status = 'filtered' RETURN count(t) AS filtered }
RETURN entities, related, runs, coalesce(last_run, '') AS last_run, rolled_back, filtered
