// lock_release: give the writer lock back (only the holder of $token can); the node goes, so a
// database nobody is writing to holds no lock node at all.
// Params: $lock, $token strings.
MATCH (l:WriterLock {name: $lock, token: $token})
DELETE l
RETURN count(*) AS released
