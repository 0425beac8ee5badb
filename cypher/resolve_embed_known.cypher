// resolve_embed_known: for each text key of $rows, the embedding of an entity that has it (the smallest id
// among those of the name core the text is of), if any: an increment's copy of a name the collapse
// leaves apart (an ambiguous short form, a cannot-link) has the text of the copy the graph had, whose
// vector is read, not computed again. Vectors as bytes (kgres.vector.pack).
// Params: $rows list<{core, key}>.
UNWIND $rows AS row
CALL (row) {
  MATCH (o:Entity {key_core: row.core})
  WHERE o.embedding_key = row.key AND o.embedding IS NOT NULL
  RETURN o ORDER BY o.id LIMIT 1
}
RETURN row.key AS key, kgres.vector.pack(o.embedding) AS embedding
