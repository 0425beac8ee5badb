// schema: constraints and indexes of the kgres graph model (DESIGN.md section 2). Idempotent.
// Params: $embedding_dimensions int, $fastrp_dimensions int (vector index sizes, from settings).
//
// Nodes:  (:Document {id, title, source, source_system, source_key, text?, attributes_json?, ingest_run_id})
//         (:Chunk {id, document_id, index, text, source_system, source_key, ingest_run_id})-[:PART_OF]->(:Document)
//         (:Mention {id, name, norm_name, type, norm_type, description, source_system, source_key,
//                    chunk_ids, document_ids, attributes_json, span_start?, span_end?, inferred,
//                    ingest_run_id})-[:IN_CHUNK]->(:Chunk)
//         (:Entity {id, name, norm_name, type, description, aliases, mention_count,
//                   trail_aliases, trail_methods, trail_run_ids, trail_confidences, trail_mentions,
//                   key_core, key_tokens, key_acronym, key_numbers, key_gender, key_title, norm_type, search_key,
//                   key_first, key_last, key_stamp,
//                   embedding, embedding_key, fastrp, context_embedding, kmeans_block})
//         (:IngestRun {id, source_system, format, path, input_hash, started_at, finished_at, status, stats_json})
//                   status: running | done | rolling_back | rolled_back (kgres rollback <ingest run id>)
//         (:LLMAnswer {key, model, prompt_version, answer, tokens, created_at})   cached LLM answers
//         (:ResolutionRun {id, started_at, finished_at, config, strategy, kgres_version, stats, status,
//                          parent, focus})
//         (:MatchModel {id, version, trained_at, run_id, pinned, spec_json, model_json, prior, pairs, labels,
//                       auto_threshold, review_threshold, expected_precision, expected_recall})   the
//                       Fellegi-Sunter model a run trained or used (kgres model show|train|export|import)
//         (:PairLabel {a, b, label, levels_json, decided_by, decided_at})   a decision kept as a training label
//         (:WriterLock {name, token?, owner?, acquired_at?, heartbeat?, ttl_ms?})   one writer at a time (kgres.db.lock)
//         (:MergePlan {run_id, part, groups_json, method, decided_by})   a running pass's decided merges
// Edges:  (:Mention)-[:RELATES {id, predicate, description, weight, chunk_ids, source_system,
//                               source_key, status, ingest_run_id}]->(:Mention)      raw triple
//         (:Mention)-[:REFERS_TO {confidence, method, run_id, decided_by, decided_at, evidence}]->(:Entity)
//         (:Entity)-[:RELATED {predicate, weight, triple_ids}]->(:Entity)   projection of active RELATES
//         (:Entity)-[:CANDIDATE {run_id, methods, score, band, match_weight, signals_json, decision}]->(:Entity)
//                   score: the match probability (default strategy) or the rule score (rules)
//         (:ResolutionRun)-[:TRAINED|USED]->(:MatchModel)
//         (:Entity)-[:SAME_AS {run_id, confidence, method, decided_by, decided_at, evidence}]->(:Entity)
//         (:Entity)-[:NOT_SAME_AS {decided_by, decided_at, reason, run_id?}]->(:Entity)
//         (:Mention)-[:REFERRED_TO {...the superseded REFERS_TO, superseded_by_run}]->(:Entity|:RetiredEntity)
//         (:RetiredEntity {...as Entity, retired_by_run, merged_into})   absorbed by a merge, kept for undo
//         (:Community {id, stamp, size, members_top, title, summary, summarized_by, embedding})   Leiden,
//         (:Entity)-[:IN_COMMUNITY]->(:Community)                     rebuilt when the graph changes
// Mention, Chunk and Document ids are namespaced "<source>:<id in the input>"; source_key keeps the
// input's own id.
CREATE CONSTRAINT document_id IF NOT EXISTS FOR (d:Document) REQUIRE d.id IS UNIQUE;
CREATE CONSTRAINT chunk_id IF NOT EXISTS FOR (c:Chunk) REQUIRE c.id IS UNIQUE;
CREATE CONSTRAINT mention_id IF NOT EXISTS FOR (m:Mention) REQUIRE m.id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (e:Entity) REQUIRE e.id IS UNIQUE;
CREATE CONSTRAINT ingest_run_id IF NOT EXISTS FOR (r:IngestRun) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT resolution_run_id IF NOT EXISTS FOR (r:ResolutionRun) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT llm_answer_key IF NOT EXISTS FOR (a:LLMAnswer) REQUIRE a.key IS UNIQUE;
CREATE CONSTRAINT relates_id IF NOT EXISTS FOR ()-[r:RELATES]-() REQUIRE r.id IS UNIQUE;
CREATE INDEX mention_norm_name IF NOT EXISTS FOR (m:Mention) ON (m.norm_name);
CREATE INDEX mention_source_key IF NOT EXISTS FOR (m:Mention) ON (m.source_system, m.source_key);
CREATE INDEX entity_norm_name IF NOT EXISTS FOR (e:Entity) ON (e.norm_name);
CREATE INDEX entity_type IF NOT EXISTS FOR (e:Entity) ON (e.type);
CREATE INDEX chunk_document_id IF NOT EXISTS FOR (c:Chunk) ON (c.document_id);
CREATE INDEX candidate_run IF NOT EXISTS FOR ()-[c:CANDIDATE]-() ON (c.run_id);
CREATE INDEX refers_to_run IF NOT EXISTS FOR ()-[r:REFERS_TO]-() ON (r.run_id);
CREATE INDEX entity_key_core IF NOT EXISTS FOR (e:Entity) ON (e.key_core);
CREATE INDEX entity_key_core_id IF NOT EXISTS FOR (e:Entity) ON (e.key_core, e.id);
CREATE INDEX entity_key_acronym IF NOT EXISTS FOR (e:Entity) ON (e.key_acronym);
CREATE INDEX entity_key_first IF NOT EXISTS FOR (e:Entity) ON (e.key_first);
CREATE INDEX entity_key_last IF NOT EXISTS FOR (e:Entity) ON (e.key_last);
CREATE INDEX entity_kmeans_block IF NOT EXISTS FOR (e:Entity) ON (e.kmeans_block);
CREATE INDEX same_as_run IF NOT EXISTS FOR ()-[s:SAME_AS]-() ON (s.run_id);
CREATE INDEX relates_status IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.status);
CREATE INDEX mention_ingest_run IF NOT EXISTS FOR (m:Mention) ON (m.ingest_run_id);
CREATE INDEX relates_ingest_run IF NOT EXISTS FOR ()-[r:RELATES]-() ON (r.ingest_run_id);
CREATE INDEX chunk_ingest_run IF NOT EXISTS FOR (c:Chunk) ON (c.ingest_run_id);
CREATE INDEX document_ingest_run IF NOT EXISTS FOR (d:Document) ON (d.ingest_run_id);
CREATE FULLTEXT INDEX entity_name IF NOT EXISTS FOR (e:Entity) ON EACH [e.name, e.aliases];
CREATE FULLTEXT INDEX mention_name IF NOT EXISTS FOR (m:Mention) ON EACH [m.name];
CREATE FULLTEXT INDEX chunk_text IF NOT EXISTS FOR (c:Chunk) ON EACH [c.text];
CREATE FULLTEXT INDEX mention_block_values IF NOT EXISTS FOR (m:Mention) ON EACH [m.block_values]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'keyword'}};
CREATE VECTOR INDEX entity_embedding IF NOT EXISTS FOR (e:Entity) ON e.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX mention_embedding IF NOT EXISTS FOR (m:Mention) ON m.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
CREATE VECTOR INDEX community_embedding IF NOT EXISTS FOR (k:Community) ON k.embedding
  OPTIONS {indexConfig: {`vector.dimensions`: $embedding_dimensions, `vector.similarity_function`: 'cosine'}};
CREATE CONSTRAINT community_id IF NOT EXISTS FOR (k:Community) REQUIRE k.id IS UNIQUE;
CREATE CONSTRAINT match_model_id IF NOT EXISTS FOR (x:MatchModel) REQUIRE x.id IS UNIQUE;
CREATE CONSTRAINT pair_label_pair IF NOT EXISTS FOR (l:PairLabel) REQUIRE (l.a, l.b) IS UNIQUE;
CREATE CONSTRAINT writer_lock_name IF NOT EXISTS FOR (l:WriterLock) REQUIRE l.name IS UNIQUE;
CREATE INDEX merge_plan_run IF NOT EXISTS FOR (p:MergePlan) ON (p.run_id);
CREATE INDEX retired_entity_id IF NOT EXISTS FOR (r:RetiredEntity) ON (r.id);
CREATE INDEX retired_entity_run IF NOT EXISTS FOR (r:RetiredEntity) ON (r.retired_by_run);
CREATE INDEX entity_revived_by_run IF NOT EXISTS FOR (e:Entity) ON (e.revived_by_run);
CREATE INDEX retired_entity_key_core IF NOT EXISTS FOR (r:RetiredEntity) ON (r.key_core);
CREATE VECTOR INDEX entity_fastrp IF NOT EXISTS FOR (e:Entity) ON e.fastrp
  OPTIONS {indexConfig: {`vector.dimensions`: $fastrp_dimensions, `vector.similarity_function`: 'cosine'}};
