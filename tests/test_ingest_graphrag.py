"""GraphRAG parquet ingest: both column generations, orphan endpoints, bad folders."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from kgres import ingest
from kgres.errors import InputError
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention, counts, snapshot


def write_output(folder: Path, *, old_columns: bool = False, drop: str | None = None) -> Path:
    """A tiny GraphRAG output folder; ``old_columns`` uses the pre-1.0 names (name, source_id, document_ids)."""
    folder.mkdir(parents=True, exist_ok=True)
    title = "name" if old_columns else "title"
    units = "source_id" if old_columns else "text_unit_ids"
    tables = {
        "entities": {"id": ["e1", "e2", "e3"], title: ["SHERLOCK HOLMES", "BAKER STREET", "MR. HOLMES"],
                     "type": ["PERSON", "GEO", "PERSON"], "description": ["A detective", "A street", None],
                     units: [["u1"], ["u1"], ["u2"]] if not old_columns else ["u1", "u1", "u2"],
                     "frequency": [2, 1, 1], "degree": [2, 1, 0]},
        "relationships": {"id": ["r1", "r2"], "source": ["SHERLOCK HOLMES", "IRENE ADLER"],
                          "target": ["BAKER STREET", "SHERLOCK HOLMES"],
                          "description": ["lives at", "admires"], "weight": [3.0, 1.0],
                          "text_unit_ids": [["u1"], ["u2"]]},
        "text_units": {"id": ["u1", "u2"], "text": ["Holmes lived in Baker Street.", "Irene admired Mr. Holmes."],
                       ("document_ids" if old_columns else "document_id"): ([["doc1"], ["doc1"]] if old_columns
                                                                            else ["doc1", "doc1"])},
        "documents": {"id": ["doc1"], "title": ["holmes.txt"], "text": ["..."]},
    }
    for name, cols in tables.items():
        if drop and name == drop.split(".")[0]:
            if "." in drop:
                cols.pop(drop.split(".")[1])
            else:
                continue
        pq.write_table(pa.table(cols), folder / f"{name}.parquet")
    return folder


@pytest.mark.parametrize("old", [False, True], ids=["current-columns", "old-columns"])
def test_graphrag_ingest(db, tmp_path, old):
    stats = ingest.ingest(db, "graphrag", write_output(tmp_path / "out", old_columns=old))
    assert (stats.documents, stats.chunks, stats.mentions, stats.inferred_mentions, stats.triples) == (1, 2, 4, 1, 2)
    m = db.run("MATCH (m:Mention {id: 'graphrag:e1'}) RETURN m.name AS name, m.type AS type, m.chunk_ids AS c, "
               "m.document_ids AS d, m.attributes_json AS a")[0]
    assert m["name"] == "SHERLOCK HOLMES" and m["type"] == "PERSON"
    assert m["c"] == ["graphrag:u1"] and m["d"] == ["graphrag:doc1"]
    assert '"frequency": 2' in m["a"]
    # relationships attach by title; the unknown IRENE ADLER is kept, not dropped
    rows = db.run("MATCH (s:Mention)-[t:RELATES]->(o:Mention) RETURN s.name AS s, o.name AS o, t.predicate AS p, "
                  "t.weight AS w, s.inferred AS inferred ORDER BY s")
    assert rows == [{"s": "IRENE ADLER", "o": "SHERLOCK HOLMES", "p": "related_to", "w": 1.0, "inferred": True},
                    {"s": "SHERLOCK HOLMES", "o": "BAKER STREET", "p": "related_to", "w": 3.0, "inferred": False}]
    assert db.run("MATCH (c:Chunk {id: 'graphrag:u1'})-[:PART_OF]->(d:Document) RETURN d.title AS t")[0]["t"] == "holmes.txt"
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_graphrag_reingest_is_a_no_op(db, tmp_path):
    folder = write_output(tmp_path / "out")
    ingest.ingest(db, "graphrag", folder)
    before = snapshot(db)
    assert ingest.ingest(db, "graphrag", folder).nodes_created == 0
    assert snapshot(db) == before


def test_optional_tables_may_be_missing(db, tmp_path):
    folder = write_output(tmp_path / "out", drop="text_units")
    (folder / "documents.parquet").unlink()
    stats = ingest.ingest(db, "graphrag", folder)
    assert stats.chunks == 0 and stats.mentions == 4


@pytest.mark.parametrize("drop,needle", [
    ("entities", "missing entities.parquet"),
    ("relationships", "missing relationships.parquet"),
    ("entities.id", "field 'id': missing column"),
    ("relationships.target", "field 'target': missing column"),
])
def test_missing_tables_and_columns(db, tmp_path, drop, needle):
    with pytest.raises(InputError, match=needle):
        ingest.ingest(db, "graphrag", write_output(tmp_path / "out", drop=drop))
    assert counts(db)["nodes"] == 0


def test_bad_values_and_files(db, tmp_path):
    folder = write_output(tmp_path / "out")
    pq.write_table(pa.table({"id": ["e1", None], "title": ["A", "B"]}), folder / "entities.parquet")
    with pytest.raises(InputError, match=r"entities.parquet, line 2, field 'id'"):
        ingest.ingest(db, "graphrag", folder)
    (folder / "entities.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(InputError, match="not a readable parquet file"):
        ingest.ingest(db, "graphrag", folder)
    with pytest.raises(InputError, match="not a folder"):
        ingest.ingest(db, "graphrag", folder / "relationships.parquet")
    assert counts(db)["nodes"] == 0


@pytest.mark.parametrize("weights, message", [(["3", "heavy"], "weight 'heavy' is not a number"),
                                              ([3.0, float("inf")], "weight inf is not a finite number")])
def test_a_weight_that_is_no_finite_number_is_refused_by_row(db, tmp_path, weights, message):
    folder = write_output(tmp_path / "out")
    table = pq.read_table(folder / "relationships.parquet").to_pydict()
    table["weight"] = weights
    pq.write_table(pa.table(table), folder / "relationships.parquet")
    with pytest.raises(InputError, match=rf"relationships.parquet, line 2, field 'weight': {message}"):
        ingest.ingest(db, "graphrag", folder)
    assert counts(db)["nodes"] == 0


def test_ids_that_are_no_list_are_refused_naming_the_whole_path(db, tmp_path):
    """Found by the fuzz test: the message named 'relationships.parquet' without its folder."""
    folder = write_output(tmp_path / "out")
    table = pq.read_table(folder / "relationships.parquet").to_pydict()
    table["text_unit_ids"] = [7] * len(table["id"])
    pq.write_table(pa.table(table), folder / "relationships.parquet")
    with pytest.raises(InputError) as refused:
        ingest.ingest(db, "graphrag", folder)
    assert str(refused.value).startswith(f"{folder / 'relationships.parquet'}, line 1, field 'text_unit_ids': "
                                         "expected a list of ids, got int")
    assert counts(db)["nodes"] == 0
