"""merge: groups larger than one transaction's share are merged in parts, and undone exactly."""

from __future__ import annotations

from kgres import ingest
from kgres.resolve import merge
from kgres.resolve.cluster import Evidence, Group
from kgres.resolve.merge import _transactions
from tests.graphs import assert_aggregates_current, assert_related_derived, graph_state, snapshot, write_jsonl


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


def test_merged_members_edges_join_the_canonicals_as_the_triples_derive_them(db, tmp_path):
    """A merge moves its members' RELATED edges onto the canonical: edges to the member itself and to
    the canonical become self-loops, edges of one predicate and far end join (triple ids sorted,
    weights summed), an edge between members of two groups of one transaction ends between their
    canonicals, and edges come in as well as go out; what the triples derive, and a rollback restores."""
    names = {"a": "Alpha", "a1": "Alpha One", "a2": "Alpha Two", "b": "Beta", "b1": "Beta One", "x": "Xeno",
             "y": "Yotta"}
    recs = [{"kind": "chunk", "id": "c1", "text": "chunk"}]
    recs += [{"kind": "mention", "id": k, "name": n, "type": "PERSON", "chunk_id": "c1"} for k, n in names.items()]
    triples = [("a1", "KNOWS", "x", 0.5), ("a", "KNOWS", "x", 0.25), ("a2", "KNOWS", "x", None),
               ("y", "KNOWS", "a2", 2.0),
               ("a1", "LIKES", "a2", 1.5), ("a1", "LIKES", "a", 0.75), ("a2", "LIKES", "a2", 1.0),
               ("b1", "MEETS", "a1", 0.125), ("a2", "MEETS", "b1", 3.0), ("b", "MEETS", "a", 1.0)]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o, **({"weight": w} if w is not None else {})}
             for s, p, o, w in triples]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "m.jsonl", recs))
    before = snapshot(db)
    assert_related_derived(db)
    db.write("run_start", run_id="r1", config="{}", kgres_version="test", strategy="test", parent=None, focus=None,
             incremental=False, mentions=7, keys=None, carried_a=None, carried_b=None)
    e = {k: f"ent:jsonl:{k}" for k in names}
    merged = merge.apply_groups(db, [group(e["a"], e["a1"], e["a2"]), group(e["b"], e["b1"])], "r1", method="rules",
                                decided_by="test")
    assert merged == 3
    assert_related_derived(db)
    assert_aggregates_current(db)
    edges = {(r["s"], r["p"], r["o"]): r["w"] for r in db.run(
        "MATCH (s)-[r:RELATED]->(o) RETURN s.name AS s, r.predicate AS p, o.name AS o, r.weight AS w")}
    assert edges == {("Alpha", "KNOWS", "Xeno"): 1.75, ("Yotta", "KNOWS", "Alpha"): 2.0,
                     ("Alpha", "LIKES", "Alpha"): 3.25, ("Beta", "MEETS", "Alpha"): 1.125,
                     ("Alpha", "MEETS", "Beta"): 3.0}
    merge.rollback(db, "r1")
    assert graph_state(snapshot(db)) == graph_state(before)
    assert_related_derived(db)


def test_a_stale_member_gets_its_canonical_refreshed_whole(db, tmp_path):
    """A member whose RELATED edges wait for a refresh (:Stale, as a killed split leaves it) has no
    edges worth moving: its canonical is derived again from the triples, and left unmarked."""
    recs = [{"kind": "chunk", "id": "c1", "text": "chunk"}]
    recs += [{"kind": "mention", "id": k, "name": n, "type": "PERSON", "chunk_id": "c1"}
             for k, n in (("a", "Alpha"), ("a1", "Alpha One"), ("x", "Xeno"))]
    recs += [{"kind": "triple", "subject": "a1", "predicate": "KNOWS", "object": "x"},
             {"kind": "triple", "subject": "a", "predicate": "LIKES", "object": "x"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "m.jsonl", recs))
    db.run("MATCH (e:Entity {id: 'ent:jsonl:a1'})-[r:RELATED]-() DELETE r SET e:Stale")  # edges not derived yet
    db.write("run_start", run_id="r1", config="{}", kgres_version="test", strategy="test", parent=None, focus=None,
             incremental=False, mentions=3, keys=None, carried_a=None, carried_b=None)
    assert merge.apply_groups(db, [group("ent:jsonl:a", "ent:jsonl:a1")], "r1", method="rules", decided_by="test") == 1
    assert_related_derived(db)
    assert db.run("MATCH (e:Entity:Stale) RETURN count(e) AS n")[0]["n"] == 0
    assert {r["p"] for r in db.run("MATCH (:Entity {id: 'ent:jsonl:a'})-[r:RELATED]->() RETURN r.predicate AS p")} \
        == {"KNOWS", "LIKES"}
