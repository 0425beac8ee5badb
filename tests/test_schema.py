"""kgres init / status / reset on the real server."""

from __future__ import annotations

from kgres import ingest, schema
from kgres.assets import asset_dir
from kgres.config import SchemaSettings


def _schema_objects(db):
    cons = db.run("SHOW CONSTRAINTS YIELD name, type RETURN name, type ORDER BY name")
    idx = db.run("SHOW INDEXES YIELD name, type, options WHERE type <> 'LOOKUP' RETURN name, type, options ORDER BY name")
    return cons, idx


def test_init_is_idempotent(db):
    first = _schema_objects(db)
    result = schema.init(db, SchemaSettings())
    assert result.warnings == []
    assert _schema_objects(db) == first
    names = {c["name"] for c in first[0]}
    assert {"mention_id", "entity_id", "chunk_id", "document_id", "relates_id"} <= names
    types = {i["name"]: i["type"] for i in first[1]}
    assert types["entity_name"] == "FULLTEXT" and types["entity_embedding"] == "VECTOR"


def test_vector_index_size_comes_from_settings(db):
    db.run("DROP INDEX entity_embedding IF EXISTS")
    db.run("DROP INDEX mention_embedding IF EXISTS")
    schema.init(db, SchemaSettings(embedding_dimensions=768))
    dims = {r["name"]: r["dimensions"] for r in db.query("schema_vector_indexes")}
    assert dims["entity_embedding"] == 768 and dims["mention_embedding"] == 768
    warn = schema.init(db, SchemaSettings(embedding_dimensions=384)).warnings
    assert any("entity_embedding has 768 dimensions but settings say 384" in w for w in warn)
    db.run("DROP INDEX entity_embedding IF EXISTS")
    db.run("DROP INDEX mention_embedding IF EXISTS")
    schema.init(db, SchemaSettings())


def test_status_reports_versions_and_counts(db):
    ingest.ingest(db, "jsonl", asset_dir("sample") / "holmes.jsonl", source="sample")
    report = schema.status(db)
    assert report.versions.neo4j.startswith("5.26")
    assert report.versions.gds and report.versions.apoc and report.versions.kgres_plugin == "0.1.0"
    c = report.counts
    assert (c.documents, c.chunks, c.mentions, c.inferred_mentions, c.triples) == (2, 9, 40, 1, 28)
    assert c.entities == c.mentions and c.relations == 28


def test_plans_are_refreshed_after_bulk_changes_only(db):
    """A replan clears every cached plan: a small batch into a large graph must not pay for it."""
    assert db.replan_if_bulk(1, 0)  # anything loaded into an empty graph
    assert db.replan_if_bulk(5, 100)
    assert not db.replan_if_bulk(4, 100)
    assert not db.replan_if_bulk(0, 100)
    assert db.replan_if_bulk(25, 100, share=0.25) and not db.replan_if_bulk(24, 100, share=0.25)  # a merge's


def test_reset_empties_data_and_projections_but_keeps_schema(db):
    ingest.ingest(db, "jsonl", asset_dir("sample") / "holmes.jsonl")
    db.run("CALL gds.graph.project('kgres_test', 'Entity', 'RELATED')")
    cons_before = _schema_objects(db)[0]
    schema.reset(db)
    assert db.run("MATCH (n) RETURN count(n) AS n")[0]["n"] == 0
    assert db.run("CALL gds.graph.list() YIELD graphName RETURN count(*) AS n")[0]["n"] == 0
    assert _schema_objects(db)[0] == cons_before
