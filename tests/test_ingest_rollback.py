"""``kgres rollback ingest:...`` and imports that fail midway: known answers on the real database.
Removing an import leaves the graph as it was before it (the import's own record stays, marked
``rolled_back``); something built on an import keeps it from being removed; a failed import removes
what it wrote; a resolve refuses to run on a graph that holds part of an input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgres import ingest
from kgres.cli import main
from kgres.errors import DatabaseUnavailable, KgresError
from kgres.ingest import rollback as ingest_rollback
from kgres.ingest import writer
from kgres.resolve import merge, resolve
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention, snapshot, write_jsonl


def first_input() -> list[dict]:
    recs = [{"kind": "document", "id": "d1", "title": "One"},
            {"kind": "chunk", "id": "c1", "document_id": "d1", "text": "Ada Lovelace met Charles Babbage."}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": f"Person {i}", "type": "PERSON", "chunk_id": "c1"}
             for i in range(10)]
    recs += [{"kind": "triple", "subject": f"m{i}", "predicate": "KNOWS", "object": f"m{i + 1}"} for i in range(9)]
    return recs


def second_input() -> list[dict]:
    """Same namespace: m5 is the first input's mention (left as it is), m20..m29 are new, and two
    triples join them, one to the first input's m5; a new document and chunk, and one more chunk
    in the first input's document."""
    recs = [{"kind": "document", "id": "d2", "title": "Two"},
            {"kind": "chunk", "id": "c2", "document_id": "d2", "text": "More people."},
            {"kind": "chunk", "id": "c3", "document_id": "d1", "text": "Still the first document."}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": f"Person {i}", "type": "PERSON", "chunk_id": "c2"}
             for i in range(20, 30)]
    recs += [{"kind": "mention", "id": "m30", "name": "Person 30", "type": "PERSON", "chunk_id": "c3"}]
    recs += [{"kind": "triple", "subject": "m20", "predicate": "KNOWS", "object": "m5"},
             {"kind": "triple", "subject": "m5", "predicate": "LIKES", "object": "m21"}]
    return recs


def data_state(db) -> tuple[list, list]:
    """The graph without the import records (a rolled-back import's record stays)."""
    nodes, rels = snapshot(db, keep_volatile=False)
    return [n for n in nodes if '"IngestRun"' not in n.split("]", 1)[0]], rels


def test_rolling_back_an_import_leaves_the_graph_as_before_it(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "one.jsonl", first_input()))
    before = data_state(db)
    second = ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "two.jsonl", second_input()))
    assert db.run("MATCH (:Entity {id: 'ent:jsonl:m5'})-[r:RELATED]-() RETURN count(r) AS n")[0]["n"] == 4
    removed = ingest_rollback.rollback(db, second.run_id)
    assert removed["mentions"] == 11 and removed["triples"] == 2 and removed["chunks_and_documents"] == 3
    assert data_state(db) == before  # the first import's m5 lost the two edges to the second's mentions
    assert db.run("MATCH (i:IngestRun {id: $id}) RETURN i.status AS s", id=second.run_id)[0]["s"] == "rolled_back"
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    with pytest.raises(KgresError, match="already rolled back"):
        ingest_rollback.rollback(db, second.run_id)
    again = ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "two.jsonl", second_input()))
    assert again.run_id == second.run_id  # ingested again, from the start
    assert (again.nodes_created, again.relationships_created) == (second.nodes_created, second.relationships_created)
    assert db.run("MATCH (i:IngestRun {id: $id}) RETURN i.status AS s", id=second.run_id)[0]["s"] == "done"


def test_what_was_built_on_an_import_keeps_it(db, tmp_path):
    first = ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "one.jsonl", first_input()))
    second = ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "two.jsonl", second_input()))
    with pytest.raises(KgresError, match=f"later import.*{second.run_id}"):  # its triples use the first's m5
        ingest_rollback.rollback(db, first.run_id)
    stats = resolve(db)
    with pytest.raises(KgresError, match=f"resolution run.*{stats.run_id}"):
        ingest_rollback.rollback(db, second.run_id)
    merge.rollback(db, stats.run_id)
    ingest_rollback.rollback(db, second.run_id)  # the resolve is undone: nothing builds on it now
    assert db.run("MATCH (m:Mention) RETURN count(m) AS n")[0]["n"] == 10
    with pytest.raises(KgresError, match="no import 'ingest:nothing'"):
        ingest_rollback.rollback(db, "ingest:nothing")


def fifth_batch_fails(monkeypatch) -> list[str]:
    """The database goes away after four of the import's batches committed (with batches of 2: the
    documents, the chunks and two batches of mentions); returns the kinds of the batches tried."""
    real, calls = writer._write_batch, []

    def fails_on_the_third(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 5:
            raise DatabaseUnavailable("connection lost")
        return real(*args, **kwargs)

    monkeypatch.setattr(writer, "_write_batch", fails_on_the_third)
    return calls


def test_an_import_that_fails_midway_removes_what_it_wrote(db, tmp_path, monkeypatch):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "one.jsonl", first_input()))
    before = data_state(db)
    calls = fifth_batch_fails(monkeypatch)
    with pytest.raises(DatabaseUnavailable) as failed:
        ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "two.jsonl", second_input()), batch_size=2)
    assert calls == ["documents", "chunks", "mentions", "mentions", "mentions"]
    assert "was rolled back: nothing of it is left" in failed.value.__notes__[0]
    assert data_state(db) == before
    assert ingest_rollback.unfinished(db) == []


def test_resolve_refuses_a_graph_that_holds_part_of_an_input(db, neo4j_env, tmp_path, monkeypatch):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "one.jsonl", first_input()))
    before = data_state(db)
    path = write_jsonl(tmp_path / "two.jsonl", second_input())
    run_id = f"ingest:jsonl:{ingest.read('jsonl', path).input_hash()[:16]}"
    with monkeypatch.context() as m:  # as if killed after four batches: nothing removed, still running
        fifth_batch_fails(m)
        m.setattr(writer, "_undo", lambda *a: None)
        with pytest.raises(DatabaseUnavailable):
            ingest.ingest(db, "jsonl", path, batch_size=2)
    assert data_state(db) != before
    status = CliRunner().invoke(main, ["status", "--json"])
    assert status.exit_code == 0 and f"import {run_id}" in json.loads(status.output)["unfinished_imports"][0]
    refused = CliRunner().invoke(main, ["resolve"])
    assert refused.exit_code == 1
    assert f"import {run_id} (jsonl {path}) did not finish" in refused.output
    assert f"kgres rollback {run_id}" in refused.output
    undone = CliRunner().invoke(main, ["rollback", run_id, "--json"])
    assert undone.exit_code == 0, undone.output
    assert data_state(db) == before
    assert json.loads(CliRunner().invoke(main, ["status", "--json"]).output)["unfinished_imports"] == []
    assert CliRunner().invoke(main, ["resolve", "--json"]).exit_code == 0
