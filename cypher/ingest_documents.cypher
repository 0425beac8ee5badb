// ingest_documents: upsert Documents; existing ones are left as they are (first ingest wins).
// Params: $rows list<{id, key, title, source, text, attributes_json}>, $source string, $run_id string.
UNWIND $rows AS row
MERGE (d:Document {id: row.id})
ON CREATE SET d.title = row.title, d.source = row.source, d.text = row.text, d.attributes_json = row.attributes_json,
              d.source_system = $source, d.source_key = row.key, d.ingest_run_id = $run_id
