"""merge: groups larger than one transaction's share are merged in parts, and undone exactly."""

from __future__ import annotations

from kgres import ingest
from kgres.resolve import merge
from kgres.resolve.cluster import Evidence, Group
from kgres.resolve.merge import _transactions
from tests.graphs import graph_state, assert_aggregates_current, snapshot, write_jsonl


def group(canonical: str, *others: str) -> Group:
    members = (canonical, *others)
    return Group(members=members, canonical=canonical, confidence=0.9,
                 evidence={m: Evidence(linked_to=canonical, score=0.9, rule="test") for m in members})


def test_batches_hold_at_most_max_members_and_split_large_groups():
    groups = [group("a", "a1", "a2", "a3", "a4", "a5"), group("b", "b1"), group("c", "c1", "c2")]
    batches = list(_transactions(groups, batch_size=500, max_members=2))
    moved = [[m for g in b for m in g.members if m != g.canonical] for b in batches]
    assert moved == [["a1", "a2"], ["a3", "a4"], ["a5", "b1"], ["c1", "c2"]]
    assert all(g.canonical == "a" for g in batches[0] + batches[1])
    assert [len(b) for b in _transactions(groups, batch_size=2, max_members=100)] == [2, 1]


def test_a_group_merged_in_parts_is_one_entity_and_rolls_back_exactly(db, tmp_path):
    recs = [{"kind": "chunk", "id": "c1", "text": "chunk"}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": f"Name {i}", "type": "PERSON", "chunk_id": "c1"}
             for i in range(6)]
    recs += [{"kind": "triple", "subject": "m1", "predicate": "KNOWS", "object": "m5"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "m.jsonl", recs))
    before = snapshot(db)
    ids = [f"ent:jsonl:m{i}" for i in range(5)]
    db.write("run_start", run_id="r1", config="{}", kgres_version="test", strategy="test", parent=None, focus=None,
             incremental=False, mentions=6, keys=None, carried_a=None, carried_b=None)
    assert merge.apply_groups(db, [group(*ids)], "r1", method="rules", decided_by="test", max_members=2) == 4
    row = db.run("MATCH (e:Entity {id: $id}) RETURN e.mention_count AS n, "
                 "COUNT { (e)-[:RELATED]-() } AS related", id=ids[0])[0]
    assert row == {"n": 5, "related": 1}
    assert_aggregates_current(db)  # merged in parts: the trail counts every part's mentions
    assert db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"] == 2
    merge.rollback(db, "r1")
    nodes, rels = snapshot(db)
    assert graph_state((nodes, rels)) == graph_state(before)
