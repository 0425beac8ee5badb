"""kgres JSONL ingest against the real database: known answers, invariants, every bad-input path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgres import ingest
from kgres.errors import InputError
from tests.graphs import (assert_aggregates_current, assert_decisions_recorded, assert_one_refers_to_per_mention,
                          counts, snapshot, write_jsonl)

RECORDS = [
    {"kind": "document", "id": "d1", "title": "The Borrowed Violin", "source": "test"},
    {"kind": "chunk", "id": "c1", "document_id": "d1", "index": 0, "text": "Mr. Sherlock Holmes lived at Baker Street."},
    {"kind": "chunk", "id": "c2", "document_id": "d1", "index": 1, "text": "Holmes met his brother Mycroft Holmes."},
    {"kind": "mention", "id": "m1", "name": "Mr. Sherlock Holmes", "type": "PERSON", "chunk_id": "c1",
     "description": "A detective.", "span": [0, 19], "attributes": {"role": "detective"}},
    {"kind": "mention", "id": "m2", "name": "Baker Street", "type": "GEO", "chunk_id": "c1"},
    {"kind": "mention", "id": "m3", "name": "Holmes", "type": "PERSON", "chunk_ids": ["c2"]},
    {"kind": "mention", "id": "m4", "name": "Mycroft  Holmes", "type": "PERSON", "chunk_id": "c2"},
    {"kind": "triple", "id": "t1", "subject": "m1", "predicate": "LIVES_AT", "object": "m2", "chunk_id": "c1",
     "weight": 2.0, "description": "Holmes lives at Baker Street."},
    {"kind": "triple", "subject": "m4", "predicate": "BROTHER_OF", "object": "m3", "chunk_id": "c2"},
    {"kind": "triple", "subject": "m-irene", "predicate": "ADMIRES", "object": "m1"},
]


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    return write_jsonl(tmp_path / "g.jsonl", RECORDS)


def test_ingest_creates_mentions_entities_and_triples(db, sample):
    stats = ingest.ingest(db, "jsonl", sample)
    assert (stats.documents, stats.chunks, stats.mentions, stats.inferred_mentions, stats.triples) == (1, 2, 5, 1, 3)
    m1 = db.run("MATCH (m:Mention {id: 'jsonl:m1'}) RETURN m")[0]["m"]
    assert m1["name"] == "Mr. Sherlock Holmes"          # verbatim
    assert m1["norm_name"] == "mr sherlock holmes"      # via kgres.text.normName in the database
    assert (m1["span_start"], m1["span_end"]) == (0, 19)
    assert m1["chunk_ids"] == ["jsonl:c1"] and m1["document_ids"] == ["jsonl:d1"]
    assert json.loads(m1["attributes_json"]) == {"role": "detective"}
    assert m1["source_system"] == "jsonl" and m1["source_key"] == "m1"
    assert db.run("MATCH (:Mention {id: 'jsonl:m4'}) RETURN 1") != []
    assert db.run("MATCH (m:Mention {id: 'jsonl:m4'}) RETURN m.norm_name AS n")[0]["n"] == "mycroft holmes"
    # one Entity per Mention, carrying the mention's name and type
    rows = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity) RETURN m.id AS m, e.id AS e, e.name AS name, "
                  "e.aliases AS aliases, e.mention_count AS n ORDER BY m")
    assert [r["e"] for r in rows] == ["ent:" + r["m"] for r in rows]
    assert all(r["n"] == 1 and r["aliases"] == [r["name"]] for r in rows)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_decisions_recorded(db)
    # chunks link to their document, mentions to their chunks
    assert db.run("MATCH (:Chunk)-[:PART_OF]->(d:Document {id: 'jsonl:d1'}) RETURN count(*) AS n")[0]["n"] == 2
    assert db.run("MATCH (:Mention {id: 'jsonl:m3'})-[:IN_CHUNK]->(c:Chunk) RETURN c.id AS c")[0]["c"] == "jsonl:c2"


def test_triples_and_entity_projection(db, sample):
    ingest.ingest(db, "jsonl", sample)
    t1 = db.run("MATCH (:Mention {id: 'jsonl:m1'})-[t:RELATES]->(:Mention {id: 'jsonl:m2'}) RETURN properties(t) AS t")[0]["t"]
    assert (t1["id"], t1["predicate"], t1["weight"], t1["status"]) == ("jsonl:t1", "LIVES_AT", 2.0, "active")
    rel = db.run("MATCH (:Entity {id: 'ent:jsonl:m1'})-[r:RELATED]->(:Entity {id: 'ent:jsonl:m2'}) RETURN properties(r) AS r")[0]["r"]
    assert rel["predicate"] == "LIVES_AT" and rel["triple_ids"] == ["jsonl:t1"] and rel["weight"] == 2.0
    assert db.run("MATCH ()-[r:RELATED]->() RETURN count(r) AS n")[0]["n"] == 3


def test_orphan_endpoint_becomes_inferred_mention(db, sample):
    stats = ingest.ingest(db, "jsonl", sample)
    assert stats.inferred_mentions == 1 and any("inferred" in n for n in stats.notes)
    m = db.run("MATCH (m:Mention {id: 'jsonl:m-irene'})-[t:RELATES]->(:Mention {id: 'jsonl:m1'}) "
               "RETURN m.inferred AS inferred, m.name AS name, t.predicate AS p")
    assert m == [{"inferred": True, "name": "m-irene", "p": "ADMIRES"}]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_reingest_changes_nothing(db, sample):
    ingest.ingest(db, "jsonl", sample)
    before = snapshot(db)
    again = ingest.ingest(db, "jsonl", sample)
    assert (again.nodes_created, again.relationships_created) == (0, 0)
    assert snapshot(db) == before


def test_two_sources_do_not_collide(db, sample):
    ingest.ingest(db, "jsonl", sample, source="a")
    ingest.ingest(db, "jsonl", sample, source="b")
    assert db.run("MATCH (m:Mention) RETURN count(m) AS n")[0]["n"] == 10
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_a_failed_ingest_leaves_nothing_and_a_rerun_writes_the_same_graph(db, sample, monkeypatch):
    """Invariant 7: a write that fails midway removes what the import wrote (kgres.ingest.rollback);
    rerunning writes the whole input."""
    ingest.ingest(db, "jsonl", sample)
    complete = snapshot(db, keep_volatile=False)
    db.run("MATCH (n) DETACH DELETE n")

    real_write = db.write
    calls = {"n": 0}

    def failing_write(name, **params):
        if name == "ingest_triples":
            calls["n"] += 1
            raise ConnectionError("simulated crash while writing triples")
        return real_write(name, **params)

    monkeypatch.setattr(db, "write", failing_write)
    with pytest.raises(ConnectionError):
        ingest.ingest(db, "jsonl", sample, batch_size=2)
    monkeypatch.undo()
    assert calls["n"] == 1
    assert db.run("MATCH (n) WHERE NOT n:IngestRun RETURN count(n) AS n")[0]["n"] == 0
    assert db.run("MATCH (r:IngestRun) RETURN r.status AS s")[0]["s"] == "rolled_back"
    ingest.ingest(db, "jsonl", sample, batch_size=2)
    assert snapshot(db, keep_volatile=False) == complete
    assert db.run("MATCH (r:IngestRun) RETURN r.status AS s")[0]["s"] == "done"


BAD = [
    ("not json", '{"kind": "mention", "id": "m1", "name": "A"\n', 1, None, "invalid JSON"),
    ("unknown kind", '{"kind": "person", "id": "x"}\n', 1, "kind", "unknown kind"),
    ("unknown field", '{"kind": "mention", "id": "m1", "name": "A", "nmae": "B"}\n', 1, "nmae", "unknown field"),
    ("wrong type", '{"kind": "mention", "id": "m1", "name": 5}\n', 1, "name", "string"),
    ("missing name", '{"kind": "mention", "id": "m1"}\n', 1, "name", "field required"),
    ("blank name", '{"kind": "mention", "id": "m1", "name": "   "}\n', 1, "name", "blank"),
    ("bad weight", '{"kind": "triple", "subject": "a", "predicate": "p", "object": "b", "weight": "x"}\n', 1,
     "weight", "number"),
    ("NaN weight", '{"kind": "triple", "subject": "a", "predicate": "p", "object": "b", "weight": NaN}\n', 1,
     "weight", "finite number"),
    ("infinite weight", '{"kind": "triple", "subject": "a", "predicate": "p", "object": "b", "weight": Infinity}\n',
     1, "weight", "finite number"),
    ("duplicate id", '{"kind": "mention", "id": "m1", "name": "A"}\n\n{"kind": "mention", "id": "m1", "name": "B"}\n',
     3, "id", "duplicate mention id 'm1' (first on line 1)"),
    ("array line", '[1, 2]\n', 1, None, "expected a JSON object"),
]


@pytest.mark.parametrize("text,line,field,message", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_bad_input_names_line_and_field_and_writes_nothing(db, tmp_path, text, line, field, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text, encoding="utf-8")
    before = counts(db)
    with pytest.raises(InputError) as err:
        ingest.ingest(db, "jsonl", path)
    msg = str(err.value)
    assert str(path) in msg and f"line {line}" in msg and message in msg
    if field:
        assert f"field '{field}'" in msg
    assert counts(db) == before  # nothing half-written


def test_error_late_in_a_large_file_writes_nothing(db, tmp_path):
    recs = [{"kind": "mention", "id": f"m{i}", "name": f"Name {i}"} for i in range(2000)]
    path = write_jsonl(tmp_path / "big.jsonl", recs)
    with open(path, "a") as f:
        f.write('{"kind": "mention", "id": "late"}\n')
    with pytest.raises(InputError, match="line 2001"):
        ingest.ingest(db, "jsonl", path, batch_size=100)
    assert counts(db)["nodes"] == 0


def test_unreadable_inputs(db, tmp_path):
    with pytest.raises(InputError, match="no such file"):
        ingest.ingest(db, "jsonl", tmp_path / "missing.jsonl")
    with pytest.raises(InputError, match="is a folder"):
        ingest.ingest(db, "jsonl", tmp_path)
    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes('{"kind": "mention", "id": "m1", "name": "Caf\xe9"}\n'.encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        ingest.ingest(db, "jsonl", latin)
    with pytest.raises(InputError, match="unknown format 'csv'"):
        ingest.ingest(db, "csv", latin)
    with pytest.raises(InputError, match="invalid source name"):
        ingest.ingest(db, "jsonl", latin, source="bad name!")
    assert counts(db)["nodes"] == 0


def test_empty_file_ingests_nothing(db, tmp_path):
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    stats = ingest.ingest(db, "jsonl", path)
    assert stats.mentions == 0 and db.run("MATCH (m:Mention) RETURN count(m) AS n")[0]["n"] == 0


def test_document_attributes_are_kept(db, tmp_path):
    from tests.graphs import write_jsonl

    path = write_jsonl(tmp_path / "d.jsonl", [
        {"kind": "document", "id": "d1", "title": "A Study", "attributes": {"year": 1887, "tags": ["novel"]}},
        {"kind": "chunk", "id": "c1", "document_id": "d1", "text": "Holmes."}])
    ingest.ingest(db, "jsonl", path)
    row = db.run("MATCH (d:Document {id: 'jsonl:d1'}) RETURN d.attributes_json AS a")[0]
    assert json.loads(row["a"]) == {"tags": ["novel"], "year": 1887}
