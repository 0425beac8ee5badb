"""``cluster``: groups from auto-merge pairs, **without single-linkage chaining**.

Connected components of the auto band are only the search space. Inside each, groups grow by
agglomeration: two groups join only if

1. some pair across them is in the auto band (a direct link),
2. no pair across them has a cannot-link reason (see :mod:`kgres.score`),
3. no *known* pair across them scores below the review threshold (the chain trap: A~B, B~C but
   A≁C keeps C out), and
4. the average over known pairs stays cohesive (>= ``cohesion``).

Pairs whose names share nothing ("Sherlock" / "Holmes") are unknown: they neither link nor veto.
The best-scoring admissible join goes first; ties go to the join covering more mentions (an
ambiguous "Holmes" joins the Sherlock group that most mentions support), then to ids, so the result
is deterministic. :func:`cohesive_groups` is pure, so it is tested against random graphs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from kgres.score import PairScore, Side

PairFn = Callable[[str, str], PairScore]


@dataclass(frozen=True)
class Group:
    """A cohesive group of at least two entities, the one to keep, and why."""

    members: tuple[str, ...]
    canonical: str
    confidence: float
    evidence: dict[str, dict]  # member id -> its strongest link inside the group


def ambiguous_surnames(sides: dict[str, Side], pair: PairFn) -> set[str]:
    """Bare person names ("Holmes") contained in two full names that cannot be the same person
    ("Sherlock Holmes", "Mycroft Holmes"): two such bare mentions may mean different people."""
    full = [i for i, s in sides.items() if s.type == "PERSON" and len(s.tokens) >= 2]
    out = set()
    for token in {s.tokens[0] for s in sides.values() if s.type == "PERSON" and len(s.tokens) == 1}:
        holders = sorted(i for i in full if token in sides[i].tokens)
        if any(pair(x, y).cannot_link for n, x in enumerate(holders) for y in holders[n + 1:]):
            out.add(token)
    return out


def cohesive_groups(ids: list[str], pair: PairFn, mentions: dict[str, int], auto: float, review: float,
                    cohesion: float) -> list[list[str]]:
    """Partition ``ids`` into cohesive groups (singletons included), deterministically."""
    ids = sorted(ids)
    scores = {(x, y): pair(x, y) for i, x in enumerate(ids) for y in ids[i + 1:]}

    def s(x: str, y: str) -> PairScore:
        return scores[(x, y) if x < y else (y, x)]

    groups = [[x] for x in ids]
    while True:
        best = None
        for i in range(len(groups)):
            for j in range(i + 1, len(groups)):
                a, b = groups[i], groups[j]
                cross = [s(x, y) for x in a for y in b]
                if any(p.cannot_link for p in cross):
                    continue
                known = [p.score for p in cross if p.known]
                if not known or max(known) < auto or min(known) < review:
                    continue
                avg = round(sum(known) / len(known), 6)  # rounding: float noise must not break ties
                if avg < cohesion:
                    continue
                weight = sum(mentions.get(x, 1) for x in a + b)
                key = (avg, weight, [-ord(c) for c in min(a + b)])
                if best is None or key > best[0]:
                    best = (key, i, j)
        if best is None:
            return [sorted(g) for g in groups]
        _, i, j = best
        groups[i] = groups[i] + groups[j]
        del groups[j]


def describe(members: list[str], pair: PairFn, mentions: dict[str, int], names: dict[str, str],
             cores: dict[str, str]) -> Group:
    """Canonical member and per-member evidence.

    Canonical: most mentions, then the most informative name (longest normalised key, so
    "Sherlock Holmes" beats "Holmes"), then the plainer spelling of it (shorter raw name, so
    "Sherlock Holmes" beats "Mr. Sherlock Holmes"), then the smallest id.
    """
    canonical = sorted(members, key=lambda m: (-mentions.get(m, 1), -len(cores.get(m, "")),
                                               len(names.get(m, "")), m))[0]
    evidence, link_scores = {}, []
    for m in members:
        links = [(pair(*sorted((m, o))), o) for o in members if o != m]
        known = [(p, o) for p, o in links if p.known]
        p, o = max(known, key=lambda t: (t[0].score, t[1]))
        evidence[m] = {"linked_to": o, "score": p.score, "rule": p.signals.get("name_rule"),
                       "signals": p.signals}
        link_scores += [q.score for q, _ in known]
    return Group(members=tuple(sorted(members)), canonical=canonical,
                 confidence=round(sum(link_scores) / len(link_scores), 4), evidence=evidence)


class UnionFind:
    """Connected components of streamed pairs (the search space for :func:`cohesive_groups`)."""

    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, x: str) -> str:
        self.parent.setdefault(x, x)
        while self.parent[x] != x:
            self.parent[x] = self.parent[self.parent[x]]
            x = self.parent[x]
        return x

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb)] = min(ra, rb)

    def components(self) -> list[list[str]]:
        out: dict[str, list[str]] = {}
        for x in self.parent:
            out.setdefault(self.find(x), []).append(x)
        return sorted((sorted(c) for c in out.values()), key=lambda c: c[0])
