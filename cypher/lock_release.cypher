// lock_release: give the writer lock back (only the holder of $token can). The node stays, free: a
// writer waiting on it may have matched it already, and a deleted node would let its SET pass silently.
// Params: $lock, $token strings.
MATCH (l:WriterLock {name: $lock, token: $token})
SET l.released_at = timestamp(), l.last_owner = l.owner
REMOVE l.token, l.owner, l.acquired_at, l.heartbeat, l.ttl_ms
RETURN l.last_owner AS owner
