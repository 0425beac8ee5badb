"""Every importer against hostile input, on the real database: either it succeeds, or it fails with
an InputError naming the place (exit 1 from the CLI), and then nothing at all was written. The known
cases first (each one a traceback or a half-written import before), then hypothesis-made JSONL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgres import ingest, schema
from kgres.config import load_settings
from kgres.errors import InputError
from tests.graphs import counts, write_jsonl

HUGE = "x" * 20_000


def refused(db, fmt: str, path: Path, *needles: str, file: Path | None = None) -> None:
    """``fmt`` refuses ``path`` naming ``file`` (default: ``path``) and each needle, having written nothing."""
    with pytest.raises(InputError) as e:
        ingest.ingest(db, fmt, path)
    assert str(file or path) in str(e.value) and all(n in str(e.value) for n in needles), str(e.value)
    assert counts(db) == {"nodes": 0, "rels": 0}
    assert db.run("MATCH (r:IngestRun) RETURN count(r) AS n")[0]["n"] == 0  # no stuck record either


@pytest.mark.parametrize("records,needles", [
    ([{"kind": "mention", "id": HUGE, "name": "A"}], ("mention", "more than the 1,000", "field 'key'")),
    ([{"kind": "mention", "id": "m1", "name": "A", "type": HUGE}], ("field 'type'",)),
    ([{"kind": "chunk", "id": "c1", "text": "t", "index": 2 ** 64}], ("within 64 bits", "field 'index'")),
    ([{"kind": "mention", "id": "m1", "name": "A", "span": [0, 2 ** 70]}], ("within 64 bits",)),
    ([{"kind": "mention", "id": "a", "name": "A"}, {"kind": "mention", "id": "b", "name": "B"},
      {"kind": "triple", "id": "t1", "subject": "a", "predicate": "P", "object": "b"},
      {"kind": "triple", "id": "t1", "subject": "b", "predicate": "Q", "object": "a"}], ("t1",)),
])
def test_jsonl_input_a_write_would_refuse_is_refused_before_writing(db, tmp_path, records, needles):
    refused(db, "jsonl", write_jsonl(tmp_path / "in.jsonl", records), *needles)


def test_deep_nesting_and_bad_encodings_are_input_errors(db, tmp_path):
    deep = "[" * 100_000 + "]" * 100_000
    p = tmp_path / "deep.jsonl"
    p.write_text('{"kind": "mention", "id": "m1", "name": "A", "attributes": {"x": ' + deep + "}}\n")
    refused(db, "jsonl", p, "nested too deeply", "line 1")
    k = tmp_path / "kg.json"
    k.write_text('{"entities": ' + deep + "}")
    refused(db, "kggen", k, "nested too deeply")
    folder = tmp_path / "lightrag"
    folder.mkdir()
    (folder / "graph_chunk_entity_relation.graphml").write_text(
        '<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
        '<key id="d0" for="node" attr.name="entity_type" attr.type="string"/>'
        '<graph edgedefault="undirected"><node id="A"><data key="d0">PERSON</data></node></graph></graphml>')
    (folder / "kv_store_text_chunks.json").write_bytes(b'{"chunk-1": {"content": "caf\xe9"}}')
    store = folder / "kv_store_text_chunks.json"
    refused(db, "graphml", folder / "graph_chunk_entity_relation.graphml", "not UTF-8", file=store)
    (folder / "kv_store_text_chunks.json").write_text('{"chunk-1": ' + deep + "}")
    refused(db, "graphml", folder / "graph_chunk_entity_relation.graphml", "nested too deeply", file=store)


def test_a_huge_name_is_kept_whole_and_resolves(db, tmp_path):
    from kgres.resolve import resolve

    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "in.jsonl", [
        {"kind": "mention", "id": "m1", "name": "Long " + HUGE, "type": "PERSON"},
        {"kind": "mention", "id": "m2", "name": "Long " + HUGE, "type": "PERSON"}]))
    assert db.run("MATCH (m:Mention {id: 'jsonl:m1'}) RETURN size(m.name) AS n")[0]["n"] == 20_005
    resolve(db)
    assert db.run("MATCH (e:Entity) RETURN count(e) AS n, max(size(e.key_core)) AS k")[0] == {"n": 1, "k": 1000}


def test_graphrag_integer_relationship_ids_are_read_as_text(db, tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"id": ["e1", "e2"], "title": ["A", "B"], "type": ["PERSON", "PERSON"]}),
                   tmp_path / "entities.parquet")
    pq.write_table(pa.table({"id": [7], "source": ["A"], "target": ["B"], "description": ["knows"]}),
                   tmp_path / "relationships.parquet")
    stats = ingest.ingest(db, "graphrag", tmp_path)
    assert stats.triples == 1 and db.run("MATCH ()-[r:RELATES]->() RETURN r.id AS id")[0]["id"] == "graphrag:7"


_text = st.one_of(st.text(max_size=12), st.just(""), st.just(" "), st.just(HUGE), st.just("\u202e\u0000"))
_value = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(min_value=-(2 ** 70), max_value=2 ** 70),
                                st.floats(allow_nan=True, allow_infinity=True), _text),
                      lambda inner: st.one_of(st.lists(inner, max_size=3),
                                              st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                      max_leaves=8)
_fields = ("kind", "id", "name", "type", "text", "index", "subject", "predicate", "object", "weight", "span",
           "chunk_id", "document_id", "attributes", "description", "title", "source", "colour")
_record = st.fixed_dictionaries(
    {"kind": st.sampled_from(["document", "chunk", "mention", "triple", "other"]),
     "id": st.one_of(st.sampled_from(["a", "b", "c"]), _value)},
    optional={f: st.one_of(st.sampled_from(["a", "b", "c", "P"]), _value) for f in _fields[2:]})


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(records=st.lists(_record, min_size=1, max_size=6))
def test_fuzzed_jsonl_either_succeeds_or_writes_nothing(db, tmp_path_factory, records):
    schema.reset(db)
    schema.init(db, load_settings().schema_)
    path = tmp_path_factory.mktemp("fuzz") / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    try:
        ingest.ingest(db, "jsonl", path)
    except InputError as e:
        assert str(path) in str(e)
        assert counts(db) == {"nodes": 0, "rels": 0}
