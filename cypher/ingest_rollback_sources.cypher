// ingest_rollback_sources: remove up to $limit of the chunks the import created that no mention is in
// any more, then the documents it created that no chunk is part of any more.
// Params: $run_id string, $limit int. Returns how many nodes were removed (0: none left).
CALL () {
  MATCH (c:Chunk {ingest_run_id: $run_id})
  WHERE NOT EXISTS { (:Mention)-[:IN_CHUNK]->(c) }
  WITH c LIMIT $limit
  DETACH DELETE c
  RETURN count(*) AS chunks
}
CALL () {
  MATCH (d:Document {ingest_run_id: $run_id})
  WHERE NOT EXISTS { (:Chunk)-[:PART_OF]->(d) }
  WITH d LIMIT $limit
  DETACH DELETE d
  RETURN count(*) AS documents
}
RETURN chunks + documents AS removed
