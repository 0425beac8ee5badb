"""KGGen JSON ingest."""

from __future__ import annotations

import json

import pytest

from kgres import ingest
from kgres.errors import InputError
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention, counts

KG = {"entities": ["Large Language Models", "LLMs", "OpenAI"], "edges": ["developed by", "abbreviates"],
      "relations": [["LLMs", "abbreviates", "Large Language Models"], ["GPT-4", "developed by", "OpenAI"],
                    ["GPT-4", "developed by", "OpenAI"]],
      "entity_clusters": None}


def test_kggen_ingest(db, tmp_path):
    path = tmp_path / "kg.json"
    path.write_text(json.dumps(KG))
    stats = ingest.ingest(db, "kggen", path)
    assert (stats.mentions, stats.inferred_mentions, stats.triples) == (4, 1, 2)  # duplicate relation collapses
    rows = db.run("MATCH (s:Mention)-[t:RELATES]->(o:Mention) RETURN s.name AS s, t.predicate AS p, o.name AS o "
                  "ORDER BY s")
    assert rows == [{"s": "GPT-4", "p": "developed by", "o": "OpenAI"},
                    {"s": "LLMs", "p": "abbreviates", "o": "Large Language Models"}]
    assert db.run("MATCH (m:Mention {name: 'GPT-4'}) RETURN m.inferred AS i")[0]["i"] is True
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


@pytest.mark.parametrize("doc,needle", [
    ('{"entities": ["a"], "relations": [["a", "b"]]}', r"field 'relations\[0\]'"),
    ('{"entities": ["a", 3], "relations": []}', r"field 'entities\[1\]'"),
    ('{"entities": [], "relations": [], "nodes": []}', "unknown key"),
    ('{"entities": []}', "field 'relations': missing or not a list"),
    ('{"entities": [],\n "relations": [}', "line 2: invalid JSON"),
    ('[]', "expected a JSON object"),
])
def test_bad_kggen(db, tmp_path, doc, needle):
    path = tmp_path / "kg.json"
    path.write_text(doc)
    with pytest.raises(InputError, match=needle):
        ingest.ingest(db, "kggen", path)
    assert counts(db)["nodes"] == 0
