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
