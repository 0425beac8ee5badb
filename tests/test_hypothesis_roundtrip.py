"""Round trip: whatever names and descriptions go in come back out of Neo4j exactly (hypothesis)."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kgres import ingest, schema
from tests.graphs import assert_aggregates_current, assert_one_refers_to_per_mention

text = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40).filter(lambda s: s.strip())


@given(names=st.lists(text, min_size=1, max_size=8), desc=st.one_of(st.none(), text))
@settings(max_examples=25, deadline=None)
def test_ingest_then_read_back_is_verbatim(session_db, names, desc):
    db = session_db
    schema.reset(db)  # per example: fixtures do not reset between examples
    recs = [{"kind": "mention", "id": f"m{i}", "name": n, "description": desc} for i, n in enumerate(names)]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "x.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
        ingest.ingest(db, "jsonl", path)
    rows = db.run("MATCH (m:Mention) RETURN m.source_key AS id, m.name AS name, m.description AS d")
    assert sorted((r["id"], r["name"], r["d"]) for r in rows) == sorted((r["id"], r["name"], desc) for r in recs)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
