// db_count: node counts per label, each read from the count store (constant time).
// Params: none.
CALL () { MATCH (n:Entity) RETURN count(n) AS Entity }
CALL () { MATCH (n:Mention) RETURN count(n) AS Mention }
CALL () { MATCH (n:RetiredEntity) RETURN count(n) AS RetiredEntity }
CALL () { MATCH (n:Chunk) RETURN count(n) AS Chunk }
CALL () { MATCH (n:Document) RETURN count(n) AS Document }
CALL () { MATCH (n:ResolutionRun) RETURN count(n) AS ResolutionRun }
RETURN Entity, Mention, RetiredEntity, Chunk, Document, ResolutionRun
