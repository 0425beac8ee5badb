"""Round trips with hypothesis: whatever names and descriptions go in come back out of Neo4j exactly,
and any merge of any groups is undone exactly by rollback."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from kgres import ingest, runs, schema
from kgres.resolve import merge
from kgres.resolve.cluster import Evidence, Group
from tests.graphs import graph_state, assert_aggregates_current, assert_one_refers_to_per_mention, snapshot

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


@st.composite
def graphs(draw):
    """Up to 8 mentions with random names, random triples between them, and a random partition of
    their entities into groups (canonical: the group's first member)."""
    n = draw(st.integers(2, 8))
    names = draw(st.lists(text, min_size=n, max_size=n))
    triples = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=10))
    labels = draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))
    groups: dict[int, list[int]] = {}
    for i, g in enumerate(labels):
        groups.setdefault(g, []).append(i)
    return names, triples, [g for g in groups.values() if len(g) > 1]


@given(graph=graphs())
@settings(max_examples=25, deadline=None)
def test_merge_then_rollback_restores_the_graph(session_db, graph):
    names, triples, partition = graph
    db = session_db
    schema.reset(db)
    recs = [{"kind": "chunk", "id": "c", "text": "text"}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": n, "chunk_id": "c"} for i, n in enumerate(names)]
    recs += [{"kind": "triple", "subject": f"m{a}", "predicate": "REL", "object": f"m{b}"} for a, b in triples]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "g.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
        ingest.ingest(db, "jsonl", path)
    before = snapshot(db)
    groups = []
    for members in partition:
        ids = tuple(f"ent:jsonl:m{i}" for i in members)
        groups.append(Group(members=ids, canonical=ids[0], confidence=0.9,
                            evidence={m: Evidence(linked_to=ids[0], score=0.9, rule="test") for m in ids}))
    runs.start(db, "r1", "{}", "test")
    merged = merge.apply_groups(db, groups, "r1", method="test", decided_by="hypothesis", max_members=2)
    assert merged == sum(len(g.members) - 1 for g in groups)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    merge.rollback(db, "r1")
    nodes, rels = snapshot(db)
    assert graph_state((nodes, rels)) == graph_state(before)
