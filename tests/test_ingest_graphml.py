"""nano-graphrag / LightRAG GraphML ingest, with and without the chunk store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kgres import ingest
from kgres.errors import InputError
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention, counts, snapshot

GRAPHML = """<?xml version='1.0' encoding='utf-8'?>
<graphml xmlns="http://graphml.graphdrawing.org/xmlns">
  <key id="d0" for="node" attr.name="entity_type" attr.type="string" />
  <key id="d1" for="node" attr.name="description" attr.type="string" />
  <key id="d2" for="node" attr.name="source_id" attr.type="string" />
  <key id="d4" for="edge" attr.name="weight" attr.type="double" />
  <key id="d5" for="edge" attr.name="description" attr.type="string" />
  <key id="d6" for="edge" attr.name="source_id" attr.type="string" />
  <graph edgedefault="undirected">
    <node id="&quot;SCROOGE&quot;">
      <data key="d0">"PERSON"</data>
      <data key="d1">"A miser."&lt;SEP&gt;"Marley's partner."</data>
      <data key="d2">chunk-1&lt;SEP&gt;chunk-2</data>
    </node>
    <node id="&quot;MARLEY&quot;">
      <data key="d0">"PERSON"</data>
      <data key="d1">"Scrooge's late partner."</data>
      <data key="d2">chunk-1</data>
    </node>
    <edge source="&quot;SCROOGE&quot;" target="&quot;MARLEY&quot;">
      <data key="d4">9.0</data>
      <data key="d5">"Partners for years."</data>
      <data key="d6">chunk-1</data>
    </edge>
    <edge source="&quot;SCROOGE&quot;" target="&quot;BOB CRATCHIT&quot;">
      <data key="d4">4.0</data>
      <data key="d6">chunk-2</data>
    </edge>
  </graph>
</graphml>
"""
CHUNKS = {"chunk-1": {"tokens": 10, "content": "Marley was dead.", "chunk_order_index": 0, "full_doc_id": "doc-1"},
          "chunk-2": {"tokens": 10, "content": "Scrooge and Bob.", "chunk_order_index": 1, "full_doc_id": "doc-1"}}


def workdir(tmp: Path, chunks: bool = True) -> Path:
    (tmp / "graph_chunk_entity_relation.graphml").write_text(GRAPHML, encoding="utf-8")
    if chunks:
        (tmp / "kv_store_text_chunks.json").write_text(json.dumps(CHUNKS), encoding="utf-8")
    return tmp


def test_graphml_folder_with_chunks(db, tmp_path):
    stats = ingest.ingest(db, "graphml", workdir(tmp_path))
    assert (stats.documents, stats.chunks, stats.mentions, stats.inferred_mentions, stats.triples) == (1, 2, 3, 1, 2)
    m = db.run('MATCH (m:Mention {source_key: \'"SCROOGE"\'}) RETURN m.name AS name, m.type AS type, '
               "m.description AS d, m.chunk_ids AS c, m.document_ids AS docs")[0]
    assert m == {"name": "SCROOGE", "type": "PERSON", "d": "A miser.\nMarley's partner.",
                 "c": ["graphml:chunk-1", "graphml:chunk-2"], "docs": ["graphml:doc-1"]}
    assert db.run("MATCH (:Mention {name: 'SCROOGE'})-[:IN_CHUNK]->(c) RETURN count(c) AS n")[0]["n"] == 2
    bob = db.run("MATCH (m:Mention {name: 'BOB CRATCHIT'}) RETURN m.inferred AS i")[0]
    assert bob["i"] is True
    w = db.run("MATCH (:Mention {name: 'SCROOGE'})-[t:RELATES]->(:Mention {name: 'MARLEY'}) RETURN t.weight AS w")
    assert w == [{"w": 9.0}]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_graphml_file_without_chunk_store(db, tmp_path):
    path = workdir(tmp_path, chunks=False) / "graph_chunk_entity_relation.graphml"
    stats = ingest.ingest(db, "graphml", path)
    assert stats.chunks == 0 and stats.mentions == 3
    before = snapshot(db)
    ingest.ingest(db, "graphml", path)
    assert snapshot(db) == before


def test_malformed_graphml(db, tmp_path):
    path = tmp_path / "g.graphml"
    path.write_text(GRAPHML.replace("</node>\n    <node", "</nod>\n    <node", 1))
    with pytest.raises(InputError, match=r"g.graphml, line \d+: malformed XML"):
        ingest.ingest(db, "graphml", path)
    path.write_text("<root/>")
    with pytest.raises(InputError, match="not GraphML"):
        ingest.ingest(db, "graphml", path)
    with pytest.raises(InputError, match="no GraphML file"):
        ingest.ingest(db, "graphml", tmp_path)  # a folder without graph_chunk_entity_relation.graphml
    (tmp_path / "graph_chunk_entity_relation.graphml").write_text(GRAPHML)
    (tmp_path / "kv_store_text_chunks.json").write_text('{"chunk-1": {"tokens": 3}}')
    with pytest.raises(InputError, match="no string 'content'"):
        ingest.ingest(db, "graphml", tmp_path)
    assert counts(db)["nodes"] == 0


@pytest.mark.parametrize("value, message", [("heavy", "weight 'heavy' is not a number"),
                                            ("inf", "weight inf is not a finite number"),
                                            ("NaN", "weight nan is not a finite number")])
def test_a_weight_that_is_no_finite_number_is_refused_by_edge(db, tmp_path, value, message):
    path = tmp_path / "g.graphml"
    path.write_text(GRAPHML.replace("<data key=\"d4\">4.0</data>", f"<data key=\"d4\">{value}</data>"))
    with pytest.raises(InputError, match=rf"g.graphml, line 2, field 'weight': {message}"):
        ingest.ingest(db, "graphml", path)
    assert counts(db)["nodes"] == 0
