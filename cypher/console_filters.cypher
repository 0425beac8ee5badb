// console_filters: what the console's queue can be filtered by: entity types, the runs that scored
// review pairs, and the source systems imported.
// Params: none.
CALL () {
  MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]->(b:Entity)
  WHERE c.decision IS NULL
  RETURN collect(DISTINCT c.run_id) AS runs, collect(DISTINCT a.type) + collect(DISTINCT b.type) AS types
}
CALL () {
  MATCH (i:IngestRun)
  RETURN collect(DISTINCT i.source_system) AS sources
}
RETURN runs, types, sources
