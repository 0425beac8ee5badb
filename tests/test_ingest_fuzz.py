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


def _either_succeeds_or_writes_nothing(db, fmt: str, path: Path) -> None:
    """Ingest ``path`` into an empty graph: success, or an InputError naming a file of the input and
    nothing written (no stuck IngestRun either)."""
    schema.reset(db)
    schema.init(db, load_settings().schema_)
    try:
        ingest.ingest(db, fmt, path)
    except InputError as e:
        assert str(path) in str(e), str(e)
        assert counts(db) == {"nodes": 0, "rels": 0}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(records=st.lists(_record, min_size=1, max_size=6))
def test_fuzzed_jsonl_either_succeeds_or_writes_nothing(db, tmp_path_factory, records):
    path = tmp_path_factory.mktemp("fuzz") / "in.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    _either_succeeds_or_writes_nothing(db, "jsonl", path)


_kggen_keys = st.sampled_from(["entities", "relations", "edges", "entity_clusters", "edge_clusters",
                               "entity_metadata", "colour"])
_word = st.sampled_from(["a", "b", "c", "P"])
_triple = st.one_of(st.tuples(_word, _word, _word), st.tuples(*[st.one_of(_word, _text)] * 3),
                    st.lists(st.one_of(st.sampled_from(["a", "b", "P"]), _value), max_size=4), _value)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(doc=st.one_of(
    st.fixed_dictionaries({"entities": st.one_of(st.lists(_word, max_size=4), st.lists(st.one_of(_word, _text), max_size=4),
                                                 st.lists(_value, max_size=3)),
                           "relations": st.one_of(st.lists(_triple, max_size=4), _value)},
                          optional={"entity_metadata": _value, "colour": _value}),
    st.dictionaries(_kggen_keys, _value, max_size=3), _value))
def test_fuzzed_kggen_either_succeeds_or_writes_nothing(db, tmp_path_factory, doc):
    path = tmp_path_factory.mktemp("fuzz") / "kg.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    _either_succeeds_or_writes_nothing(db, "kggen", path)


_xml_text = st.one_of(st.text(st.characters(blacklist_categories=("Cs",)), max_size=12), st.just(HUGE),
                      st.just("9" * 40), st.just("-1.5e400"), st.just('"A"<SEP>"B"'), st.just("\u202e"))
_graphml_keys = [("d0", "node", "entity_type", "string"), ("d1", "node", "description", "string"),
                 ("d2", "node", "source_id", "string"), ("d3", "edge", "weight", "double"),
                 ("d4", "edge", "description", "string"), ("d5", "node", "rank", "long"),
                 ("d6", "edge", "order", "int")]


def _graphml(nodes: list[tuple[str, dict[str, str]]], edges: list[tuple[str, str, dict[str, str]]]) -> str:
    from xml.sax.saxutils import escape, quoteattr

    keys = "".join(f'<key id="{k}" for="{f}" attr.name="{n}" attr.type="{t}"/>' for k, f, n, t in _graphml_keys)
    data = lambda d: "".join(f'<data key="{k}">{escape(v)}</data>' for k, v in d.items())  # noqa: E731
    body = "".join(f"<node id={quoteattr(i)}>{data(d)}</node>" for i, d in nodes)
    body += "".join(f"<edge source={quoteattr(s)} target={quoteattr(t)}>{data(d)}</edge>" for s, t, d in edges)
    return ('<?xml version="1.0"?><graphml xmlns="http://graphml.graphdrawing.org/xmlns">' + keys
            + f'<graph edgedefault="undirected">{body}</graph></graphml>')


_ids = st.one_of(st.sampled_from(["A", "B", '"C"']), _xml_text)
_node_data = st.dictionaries(st.sampled_from(["d0", "d1", "d2", "d5", "dx"]), _xml_text, max_size=3)
_edge_data = st.dictionaries(st.sampled_from(["d3", "d4", "d6", "d2"]), _xml_text, max_size=3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(nodes=st.lists(st.tuples(_ids, _node_data), max_size=4),
       edges=st.lists(st.tuples(_ids, _ids, _edge_data), max_size=4))
def test_fuzzed_graphml_either_succeeds_or_writes_nothing(db, tmp_path_factory, nodes, edges):
    path = tmp_path_factory.mktemp("fuzz") / "g.graphml"
    path.write_text(_graphml(nodes, edges), encoding="utf-8")
    _either_succeeds_or_writes_nothing(db, "graphml", path)


_names = st.lists(st.one_of(st.sampled_from(["A", "B"]), _text), min_size=2, max_size=2)
_column = st.one_of(
    st.lists(st.one_of(st.none(), _text), min_size=2, max_size=2),
    st.lists(st.integers(min_value=-(2 ** 63), max_value=2 ** 63 - 1), min_size=2, max_size=2),
    st.lists(st.floats(allow_nan=True, allow_infinity=True), min_size=2, max_size=2),
    st.lists(st.lists(_text, max_size=2), min_size=2, max_size=2))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(entities=st.fixed_dictionaries({"id": _names, "title": _names},
                                      optional={c: _column for c in ("type", "description", "text_unit_ids", "degree",
                                                                     "colour")}),
       relationships=st.one_of(st.just({}), st.fixed_dictionaries(
           {"source": _names, "target": _names},
           optional={c: _column for c in ("id", "description", "weight", "text_unit_ids")})))
def test_fuzzed_graphrag_either_succeeds_or_writes_nothing(db, tmp_path_factory, entities, relationships):
    import pyarrow as pa
    import pyarrow.parquet as pq

    folder = tmp_path_factory.mktemp("fuzz")
    pq.write_table(pa.table(entities) if entities else pa.table({"x": [1]}), folder / "entities.parquet")
    pq.write_table(pa.table(relationships) if relationships else pa.table({"x": [1]}), folder / "relationships.parquet")
    _either_succeeds_or_writes_nothing(db, "graphrag", folder)
