// schema_reset_delete_all: delete every node and relationship, in batches (schema is kept).
// Params: none. Must run in an auto-commit transaction (CALL ... IN TRANSACTIONS).
MATCH (n)
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS
