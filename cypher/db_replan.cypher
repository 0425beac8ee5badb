// db_replan: resample the indexes and clear the query caches, so the next queries are planned on
// current statistics. After a bulk load into an empty database the index samples still say "empty",
// and the planner then scans a whole index inside pattern comprehensions (seen: 60 s instead of 0.3 s
// for resolve_pairs_members on 5k entities). Waits at most 300 s.
// Params: none.
CALL db.prepareForReplanning(300)
