// lock_acquire: take the database's writer lock for $token, if it is free, already ours, or its holder
// stopped heartbeating more than its own ttl ago (a crashed process); report the holder otherwise.
// The first SET takes the node's write lock before anything is read, so two writers asking at once
// are serialised and exactly one sees the lock free (Neo4j reads committed data after the lock).
// Times are the server's clock (timestamp(), ms), so clients with skewed clocks agree.
// Params: $lock, $token, $owner strings; $ttl_ms int (how long this holder may go without a heartbeat).
MERGE (l:WriterLock {name: $lock})
SET l.asked_at = timestamp()
WITH l, l.asked_at AS now
WITH l, now, l.token AS held_by, l.owner AS previous, l.heartbeat AS heartbeat,
     l.token IS NULL OR l.token = $token OR l.heartbeat < now - l.ttl_ms AS free
FOREACH (_ IN CASE WHEN free AND coalesce(held_by, '') <> $token THEN [1] END |
  SET l.token = $token, l.owner = $owner, l.acquired_at = now, l.heartbeat = now, l.ttl_ms = $ttl_ms)
RETURN free AS acquired,
       CASE WHEN free AND held_by IS NOT NULL AND held_by <> $token THEN previous END AS taken_over_from,
       l.owner AS owner, now - l.acquired_at AS held_ms, now - l.heartbeat AS idle_ms, l.ttl_ms AS ttl_ms
