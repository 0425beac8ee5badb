"""Clustering is pure: checked on random graphs for its guarantees (no chaining, constraints hold)."""

from __future__ import annotations

import random

import pytest

from kgres.resolve.cluster import UnionFind, cohesive_groups
from kgres.resolve.score import PairScore


def random_case(seed: int, n: int = 12):
    rnd = random.Random(seed)
    ids = [f"e{i:02d}" for i in range(n)]
    table = {}
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            roll = rnd.random()
            if roll < 0.08:
                table[(x, y)] = PairScore(0.0, "reject", True, "cannot")
            elif roll < 0.45:
                s = round(rnd.uniform(0.3, 1.0), 2)
                band = "auto" if s >= 0.88 else "review" if s >= 0.6 else "reject"
                table[(x, y)] = PairScore(s, band, True, None)
            else:
                table[(x, y)] = PairScore(0.2, "reject", False, None)  # unknown
    return ids, table


@pytest.mark.parametrize("seed", range(40))
def test_groups_respect_every_constraint(seed):
    ids, table = random_case(seed)
    pair = lambda x, y: table[(x, y) if x < y else (y, x)]  # noqa: E731
    groups = cohesive_groups(ids, pair, {}, auto=0.88, cohesion=0.8)
    assert sorted(x for g in groups for x in g) == sorted(ids)          # a partition
    for g in groups:
        known = [pair(x, y) for i, x in enumerate(g) for y in g[i + 1:] if pair(x, y).known]
        assert not any(p.cannot_link for p in known)                      # cannot-link holds
        assert all(p.score >= 0.88 for p in known)                        # no chain through a weak pair
        if len(g) > 1:
            assert sum(p.score for p in known) / len(known) >= 0.8 - 1e-9  # cohesive
            uf = UnionFind()                                              # connected by auto links
            for i, x in enumerate(g):
                for y in g[i + 1:]:
                    if pair(x, y).known and pair(x, y).score >= 0.88:
                        uf.union(x, y)
            assert len({uf.find(x) for x in g}) == 1
    shuffled = ids[:]
    random.Random(seed).shuffle(shuffled)
    assert cohesive_groups(shuffled, pair, {}, 0.88, 0.8) == groups  # order-independent


def test_acronym_cannot_bridge_two_different_names():
    s = {("gus", "gus1"): PairScore(0.92, "auto", True, None), ("gus", "gus2"): PairScore(0.92, "auto", True, None),
         ("gus1", "gus2"): PairScore(0.7, "review", True, None)}
    groups = cohesive_groups(["gus", "gus1", "gus2"], lambda x, y: s[(x, y)], {}, 0.88, 0.8)
    assert ["gus", "gus1", "gus2"] not in groups


def test_chain_trap():
    s = {("a", "b"): PairScore(0.95, "auto", True, None), ("b", "c"): PairScore(0.95, "auto", True, None),
         ("a", "c"): PairScore(0.3, "reject", True, None)}
    groups = cohesive_groups(["a", "b", "c"], lambda x, y: s[(x, y)], {}, 0.88, 0.8)
    assert ["a", "b", "c"] not in groups and len(groups) == 2


def _holmes_case(sherlock_mentions: int):
    """'h' (a bare Holmes) is 0.88 from both brothers, who cannot be one person."""
    s = {("h", "my"): PairScore(0.88, "auto", True, None), ("h", "sh"): PairScore(0.88, "auto", True, None),
         ("my", "sh"): PairScore(0.0, "reject", True, "different given names")}
    return lambda x, y: s[(x, y) if x < y else (y, x)], {"sh": sherlock_mentions, "my": 1, "h": 1}


def test_conflicting_tie_is_parked_without_a_clear_prior():
    pair, mentions = _holmes_case(sherlock_mentions=1)
    assert cohesive_groups(["h", "my", "sh"], pair, mentions, 0.88, 0.8) == [["h"], ["my"], ["sh"]]


def test_conflicting_tie_goes_to_the_clearly_better_supported_home():
    pair, mentions = _holmes_case(sherlock_mentions=4)
    assert cohesive_groups(["h", "my", "sh"], pair, mentions, 0.88, 0.8) == [["h", "sh"], ["my"]]


def test_prior_does_not_pick_among_three_homes():
    s = {("h", "p1"): PairScore(0.88, "auto", True, None), ("h", "p2"): PairScore(0.88, "auto", True, None),
         ("h", "p3"): PairScore(0.88, "auto", True, None)}
    for x, y in (("p1", "p2"), ("p1", "p3"), ("p2", "p3")):
        s[(x, y)] = PairScore(0.0, "reject", True, "different given names")
    groups = cohesive_groups(["h", "p1", "p2", "p3"], lambda x, y: s[(x, y)], {"p1": 9, "p2": 1, "p3": 1},
                             0.88, 0.8)
    assert ["h"] in groups


def test_an_oversized_component_is_cut_at_its_weakest_edges_then_sliced():
    from kgres.resolve.cluster import split_component

    # two cliques of three joined by one weaker edge: the cut falls on that edge
    edges = [("a", "b", 1.0), ("b", "c", 1.0), ("a", "c", 1.0), ("d", "e", 1.0), ("e", "f", 1.0),
             ("d", "f", 1.0), ("c", "d", 0.9)]
    pieces = split_component(list("abcdef"), edges, 0.88, 4)
    assert sorted(map(sorted, pieces)) == [["a", "b", "c"], ["d", "e", "f"]]
    # all edges equally strong: id-ordered slices of at most the limit, none left out
    chain = [(f"n{i:02d}", f"n{i + 1:02d}", 1.0) for i in range(9)]
    pieces = split_component([f"n{i:02d}" for i in range(10)], chain, 0.88, 4)
    assert [len(p) for p in pieces] == [4, 4, 2] and sorted(x for p in pieces for x in p) == sorted(
        f"n{i:02d}" for i in range(10))


# -- one pass over scored pairs (the default strategy) --------------------------------------------

WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo",
         "lima", "mike", "november"]


def _entities(db, tmp_path, names):
    from kgres import ingest
    from tests.graphs import write_jsonl

    recs = [{"kind": "mention", "id": n, "name": n, "type": "CONCEPT"} for n in names]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "e.jsonl", recs))
    return {n: f"ent:jsonl:{n}" for n in names}


def _row(a, b, p, band="auto", name="typo", vetoed=False, capped=False, apart=False):
    return {"a": a, "b": b, "p": p, "band": band, "name_rule": name, "vetoed": vetoed, "capped": capped,
            "apart": apart, "signals": None}


def test_a_short_form_of_two_titles_that_each_have_words_of_their_own_does_not_bridge_them(db, tmp_path):
    """DBLP's "mining association rules" is close to "mining generalized association rules" and to "mining
    quantitative association rules", two papers whose own pair is held back (``apart``: each name has a word of
    its own inside it). Chained through the short form they were one entity; now the short form waits between
    two equally good homes, or joins the clearly better one."""
    from kgres.resolve.cluster import cluster_rows

    names = {"hub": "alpha", "gen1": "bravo", "gen2": "charlie", "qua1": "delta", "qua2": "echo"}
    e = {k: v for k, v in zip(names, _entities(db, tmp_path, list(names.values())).values())}
    rows = [_row(e["gen1"], e["gen2"], 0.99, name="same_key"), _row(e["qua1"], e["qua2"], 0.99, name="same_key"),
            _row(e["hub"], e["gen1"], 0.96, name="overlap_60"), _row(e["hub"], e["qua1"], 0.95, name="overlap_60"),
            _row(e["gen1"], e["qua1"], 0.85, band="review", name="overlap_40", capped=True, apart=True)]
    groups, stats = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(e["gen1"], e["gen2"]), (e["qua1"], e["qua2"])]
    assert stats.refused["ambiguous_short_form"] == 1
    rows[3] = _row(e["hub"], e["qua1"], 0.80, band="review", name="overlap_60")  # one home only: it joins it
    groups, _ = cluster_rows(db, rows)
    assert [g.members for g in groups] == [tuple(sorted((e["gen1"], e["gen2"], e["hub"]))), (e["qua1"], e["qua2"])]
    rows[3] = _row(e["hub"], e["qua1"], 0.95, name="overlap_60")
    rows[4] = _row(e["gen1"], e["qua1"], 0.85, band="review", name="overlap_40", capped=True)  # held, not apart
    groups, _ = cluster_rows(db, rows)
    assert [g.members for g in groups] == [tuple(sorted(e.values()))]  # the chain the flag breaks


def test_one_pass_keeps_the_chain_trap_apart(db, tmp_path):
    from kgres.resolve.cluster import cluster_rows

    e = _entities(db, tmp_path, ["alpha", "bravo", "charlie"])
    rows = [_row(e["alpha"], e["bravo"], 0.99), _row(e["bravo"], e["charlie"], 0.98),
            _row(e["alpha"], e["charlie"], 0.2, band="review")]          # A~B, B~C, but A and C: probably not
    groups, stats = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(e["alpha"], e["bravo"])] and stats.refused["weak_link"] == 1
    rows[-1] = _row(e["alpha"], e["charlie"], 0.2, band="review", name="none")  # names that say nothing: no veto
    groups, _ = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(e["alpha"], e["bravo"], e["charlie"])]
    rows[-1] = _row(e["alpha"], e["charlie"], 0.0, band="reject", vetoed=True)  # a cannot-link pair: neither
    groups, _ = cluster_rows(db, rows)
    assert len(groups) == 1 and len(groups[0].members) == 3   # (the groups' names themselves do not conflict)


def test_a_namesake_waits_for_the_stronger_join_it_would_forbid(db, tmp_path):
    """A bare "Murdoch" that is the son of "Rupert Murdoch" would, joined first to the other "Murdoch"
    (seven mentions), forbid them Rupert: it stays alone. Where that join does not happen (the model
    doubts Murdoch / Rupert), it joins after the pass."""
    from kgres import ingest
    from kgres.resolve.cluster import cluster_rows
    from tests.graphs import write_jsonl

    recs = [{"kind": "mention", "id": n, "name": n, "type": "CONCEPT"} for n in ("son", "murdoch", "rupert")]
    recs.append({"kind": "triple", "subject": "son", "predicate": "SON_OF", "object": "rupert"})
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "n.jsonl", recs))
    db.run("MATCH (e:Entity {id: 'ent:jsonl:murdoch'}) SET e.mention_count = 7")
    son, murdoch, rupert = "ent:jsonl:son", "ent:jsonl:murdoch", "ent:jsonl:rupert"
    rows = [_row(son, murdoch, 0.9999, name="same_key"), _row(murdoch, rupert, 0.998, name="person_name"),
            _row(son, rupert, 0.0, band="reject", vetoed=True)]
    groups, stats = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(murdoch, rupert)] and stats.refused["namesake"] == 1
    rows[1] = _row(murdoch, rupert, 0.4, band="review", name="person_name")
    groups, _ = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(murdoch, son)]
    rows[0] = _row(son, murdoch, 0.9999, name="same_key")
    db.run("MATCH (e:Entity {id: 'ent:jsonl:murdoch'}) SET e.mention_count = 1")  # no better support: joins
    rows[1] = _row(murdoch, rupert, 0.998, name="person_name")
    groups, _ = cluster_rows(db, rows)
    assert [g.members for g in groups] == [(murdoch, son)]


def test_the_threshold_sweep_keeps_apart_what_the_run_kept_apart(db, tmp_path):
    """``kgres eval clusters --sweep`` clusters a run's stored pairs again at each threshold. A pair held in review
    because its names each replace a word says so on its edge (``capped``: :data:`APART`), so the sweep, too, keeps
    the short form of both titles from bridging them; a pair held for another reason neither links nor vetoes."""
    import json

    from kgres.evaluate.sweep import _model_sweep
    from kgres.resolve.cluster import ClusterConfig
    from kgres.resolve.score.stage import APART, CAPPED

    names = {"hub": "alpha", "gen1": "bravo", "gen2": "charlie", "qua1": "delta", "qua2": "echo"}
    e = {k: v for k, v in zip(names, _entities(db, tmp_path, list(names.values())).values())}
    edges = [("gen1", "gen2", 0.99, "same_key"), ("qua1", "qua2", 0.99, "same_key"),
             ("hub", "gen1", 0.96, "overlap_60"), ("hub", "qua1", 0.95, "overlap_60"),
             ("gen1", "qua1", 0.85, "overlap_40")]
    rows = [{"a": e[a], "b": e[b], "score": p, "rule": r,
             "signals": json.dumps({"capped": APART}) if a == "gen1" and b == "qua1" else None}
            for a, b, p, r in edges]
    db.run("UNWIND $rows AS r MATCH (a:Entity {id: r.a}), (b:Entity {id: r.b}) "
           "CREATE (a)-[:CANDIDATE {run_id: 'run-sweep', score: r.score, name_rule: r.rule, "
           "signals_json: r.signals}]->(b)",
           rows=rows)
    before = {n: e[k] for k, n in names.items()}
    gold = {n: "gen" if k in ("hub", "gen1", "gen2") else "qua" for k, n in names.items()}
    point = _model_sweep(db, "run-sweep", before, gold, (0.9,), ClusterConfig())[0]
    assert (point.p, point.r) == (1.0, 0.5)          # two groups of two; the short form waits between them
    db.run("MATCH ()-[c:CANDIDATE {run_id: 'run-sweep', score: 0.85}]->() SET c.signals_json = $s",
           s=json.dumps({"capped": CAPPED}))
    assert _model_sweep(db, "run-sweep", before, gold, (0.9,), ClusterConfig())[0].p < 1.0   # held otherwise: bridged


@pytest.mark.parametrize("seed", range(12))
def test_one_pass_groups_on_random_graphs_hold_their_guarantees(db, tmp_path, seed):
    """Oracle on random scored graphs: a partition; every group is connected by auto pairs; no pair
    inside a group whose names say something is below the link floor."""
    from kgres.resolve.cluster import ClusterConfig, cluster_rows

    rnd = random.Random(seed)
    e = _entities(db, tmp_path, WORDS)
    ids = sorted(e.values())
    rows = []
    for i, x in enumerate(ids):
        for y in ids[i + 1:]:
            roll = rnd.random()
            if roll < 0.35:
                p = round(rnd.uniform(0.0, 1.0), 3)
                rows.append(_row(x, y, p, band="auto" if p >= 0.9 else "review", name=rnd.choice(["typo", "none"])))
    cfg = ClusterConfig()
    groups, _ = cluster_rows(db, rows, cfg)
    members = [m for g in groups for m in g.members]
    assert len(members) == len(set(members))                              # disjoint
    known = {(r["a"], r["b"]): r for r in rows if r["name_rule"] != "none"}
    for g in groups:
        inside = set(g.members)
        uf = UnionFind()
        for r in rows:
            if r["band"] == "auto" and r["a"] in inside and r["b"] in inside:
                uf.union(r["a"], r["b"])
        assert len({uf.find(m) for m in inside}) == 1                     # connected by auto pairs
        for (a, b), r in known.items():
            if a in inside and b in inside:
                assert r["p"] >= cfg.link_floor                           # complete linkage on evidence
        assert g.canonical in inside and set(g.evidence) == inside


def test_a_true_cluster_of_two_thousand_entities_is_one_group(db, tmp_path):
    """Clustering has no component size limit: 2,000 entities that auto pairs chain into one true
    cluster (each linked to an earlier one, like the copies of an entity mentioned everywhere) become
    one group in one pass, next to a pair that stays apart."""
    from itertools import product

    from kgres.resolve.cluster import cluster_rows

    names = [" ".join(w) for w in product(WORDS, repeat=3)][:2002]
    e = _entities(db, tmp_path, names)
    ids = [e[n] for n in names]
    rnd = random.Random(3)
    rows = [_row(ids[rnd.randrange(i)], ids[i], round(rnd.uniform(0.9, 1.0), 4)) for i in range(1, 2000)]
    rows += [_row(ids[rnd.randrange(2000)], ids[rnd.randrange(2000)], round(rnd.uniform(0.5, 0.9), 4), band="review")
             for _ in range(500)]  # pairs inside the cluster the model was less sure of
    rows += [_row(ids[2000], ids[2001], 0.95), _row(ids[0], ids[2000], 0.3, band="review", name="none")]
    seen: set[frozenset] = set()  # a pair is scored once
    rows = [r for r in rows if r["a"] != r["b"] and not (frozenset((r["a"], r["b"])) in seen
                                                        or seen.add(frozenset((r["a"], r["b"]))))]
    groups, stats = cluster_rows(db, rows)
    assert stats.refused == {"constraint": 0, "weak_link": 0, "cohesion": 0, "ambiguous_short_form": 0,
                             "namesake": 0}, stats
    assert sorted(len(g.members) for g in groups) == [2, 2000] and stats.joins == 1999 + 1


def test_the_canonical_is_the_name_the_group_mentions_most_its_short_forms_counted_for_it():
    """1,114 unmerged copies of "Bill Gates" and a "Bill" of 12 mentions are "Bill Gates" (cesi-ambiguous
    named the entity "Bill"); 60 copies of "Holmes" do not outweigh a "Sherlock Holmes" of 50."""
    from kgres.resolve.cluster import canonical_of, name_support

    copies = [f"g{i}" for i in range(30)]
    members = copies + ["bill"]
    mentions = {**{c: 1 for c in copies}, "bill": 12}
    cores = {**{c: "bill gate" for c in copies}, "bill": "bill"}
    names = {**{c: "Bill Gates" for c in copies}, "bill": "Bill"}
    assert canonical_of(members, mentions, names, cores) == "g0"
    holmes = [f"h{i}" for i in range(60)]
    assert canonical_of(holmes + ["sh"], {**{h: 1 for h in holmes}, "sh": 50}, {}, {**{h: "holmes" for h in holmes},
                                                                                    "sh": "sherlock holmes"}) == "sh"
    assert name_support(["holmes", "sherlock holmes", "mycroft holmes"], [5, 3, 2]) == {
        "holmes": 5, "sherlock holmes": 8, "mycroft holmes": 7}
    assert name_support(["authentication", "authentication authorization"], [427, 2]) == {
        "authentication": 427, "authentication authorization": 2}  # a rare full name does not take the group
    assert canonical_of(members, mentions, names, cores, new=frozenset(copies)) == "bill"  # the graph had it

