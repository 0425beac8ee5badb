// schema_reset_delete_relationships: delete every relationship, in batches of a bounded size, before
// schema_reset_delete_all deletes the nodes. Deleted with their nodes, 10,000 nodes could carry
// hundreds of thousands of relationships into one transaction (a resolved 100k-mention graph, its
// entities holding the CANDIDATE edges of every pass: the memory pool limit was exceeded).
// Must run in an auto-commit transaction (CALL ... IN TRANSACTIONS).
// Params: none.
MATCH ()-[r]->()
CALL (r) { DELETE r } IN TRANSACTIONS OF 50000 ROWS
