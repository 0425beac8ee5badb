// retrieve_communities_write: title, summary (LLM or extractive, with who wrote it) and embedding of communities.
// Params: $rows list<{id, title, summary, summarized_by, embedding}>.
UNWIND $rows AS row
MATCH (k:Community {id: row.id})
SET k.title = row.title, k.summary = row.summary, k.summarized_by = row.summarized_by, k.embedding = row.embedding
