// schema_reset_delete_all: delete every node and relationship, in batches (schema is kept), except the
// writer lock held as $token, so that the command resetting keeps holding it (kgres.db.lock).
// Params: $token string or null (the caller's writer lock).
// Must run in an auto-commit transaction (CALL ... IN TRANSACTIONS).
MATCH (n)
WHERE NOT (n:WriterLock AND coalesce(n.token, '') = coalesce($token, '-'))
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
