// lock_heartbeat: the holder of $token says it is alive; returns no row when the lock is no longer its own
// (taken over after a heartbeat gap longer than its ttl, or the database was reset).
// Params: $lock, $token strings.
MATCH (l:WriterLock {name: $lock, token: $token})
SET l.heartbeat = timestamp()
RETURN l.owner AS owner
