"""``cluster``: groups from auto-merge pairs, **without single-linkage chaining**.

Connected components of the auto band are only the search space. Inside each, groups grow by
agglomeration: two groups join only if

1. some pair across them is in the auto band (a direct link),
2. no pair across them has a cannot-link reason (see :mod:`kgres.score`),
3. every *known* pair across them is in the auto band too (complete linkage on what the names can
   tell: the chain trap A~B, B~C, A≁C keeps C out, and an acronym "GUS" cannot bridge "Global United
   Systems" and "General Unified Systems", whose own pair is only review), and
4. the average over known pairs stays cohesive (>= ``cohesion``).

Pairs whose names share nothing ("Sherlock" / "Holmes") are unknown: they neither link nor veto.
The best-scoring admissible join goes first; ties go to the join covering more mentions (an
ambiguous "Holmes" joins the Sherlock group that most mentions support), then to ids, so the result
is deterministic. :func:`cohesive_groups` is pure, so it is tested against random graphs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from kgres.score import PairScore

T = TypeVar("T")

PairFn = Callable[[str, str], PairScore]
PRIOR_MARGIN = 2  # a tie between conflicting homes goes to one only with twice the other's mentions


@dataclass(frozen=True)
class Group:
    """A cohesive group of at least two entities, the one to keep, and why."""

    members: tuple[str, ...]
    canonical: str
    confidence: float
    evidence: dict[str, dict]  # member id -> its strongest link inside the group


def cohesive_groups(ids: list[str], pair: PairFn, mentions: dict[str, int], auto: float,
                    cohesion: float) -> list[list[str]]:
    """Partition ``ids`` into cohesive groups (singletons included), deterministically.

    A group whose best join ties with an equally good join into a group it cannot coexist with
    (a bare "Holmes" as close to Sherlock as to Mycroft) goes to the better-supported home only if
    that home has at least ``PRIOR_MARGIN`` times the mentions of the other and there are only two
    (the popularity prior of entity linking: five Sherlock mentions against one Mycroft; among three
    or more homes it is a guess). Otherwise it is *parked*: it stays
    apart, for review or for a later pass in which merged neighbours give it context. Precision first.
    """
    ids = sorted(ids)
    scores = {(x, y): pair(x, y) for i, x in enumerate(ids) for y in ids[i + 1:]}

    def s(x: str, y: str) -> PairScore:
        return scores[(x, y) if x < y else (y, x)]

    def join(a: list[str], b: list[str]) -> float | None:
        """Average known score if a and b may join, else None."""
        cross = [s(x, y) for x in a for y in b]
        if any(p.cannot_link for p in cross):
            return None
        known = [p.score for p in cross if p.known]
        if not known or min(known) < auto:
            return None
        avg = round(sum(known) / len(known), 6)  # rounding: float noise must not break ties
        return avg if avg >= cohesion else None

    def compatible(a: list[str], b: list[str]) -> bool:
        return not any(s(x, y).cannot_link for x in a for y in b)

    groups = [[x] for x in ids]
    parked: set[int] = set()  # indexes into groups of parked groups (kept stable by never deleting)
    alive = set(range(len(groups)))
    while True:
        options = []
        for i in sorted(alive - parked):
            for j in sorted(alive - parked):
                if i < j and (avg := join(groups[i], groups[j])) is not None:
                    weight = sum(mentions.get(x, 1) for x in groups[i] + groups[j])
                    options.append(((-avg, -weight, sorted(groups[i] + groups[j])), i, j, avg))
        if not options:
            return sorted(sorted(groups[i]) for i in alive)
        _, i, j, avg = min(options)
        conflict = _conflicting_tie(i, j, avg, options, groups, compatible, mentions)
        if conflict is not None:
            parked.add(conflict)
            continue
        groups[i] = groups[i] + groups[j]
        alive.discard(j)


def _conflicting_tie(i, j, avg, options, groups, compatible, mentions) -> int | None:
    """The side of the best join (i, j) that has an equally good home it could not share with the
    other side, unless the popularity prior settles it; None when the best join is unambiguous."""
    def support(g: int) -> int:
        return sum(mentions.get(x, 1) for x in groups[g])

    for side, other in ((i, j), (j, i)):
        rivals = []
        for _, a, b, alt in options:
            if alt != avg or side not in (a, b):
                continue
            third = b if a == side else a
            if third != other and not compatible(groups[other], groups[third]):
                rivals.append(third)
        # The prior may settle a choice between two homes; among three or more it is a guess.
        if len(rivals) > 1 or (rivals and support(other) < PRIOR_MARGIN * support(rivals[0])):
            return side
    return None


def describe(members: list[str], pair: PairFn, mentions: dict[str, int], names: dict[str, str],
             cores: dict[str, str]) -> Group:
    """Canonical member and per-member evidence.

    Canonical: most mentions, then the most informative name (longest normalised key, so
    "Sherlock Holmes" beats "Holmes"), then the plainer spelling of it (shorter raw name, so
    "Sherlock Holmes" beats "Mr. Sherlock Holmes"), then the smallest id.
    """
    canonical = canonical_of(members, mentions, names, cores)
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


def canonical_of(members: list[str], mentions: dict[str, int], names: dict[str, str],
                 cores: dict[str, str]) -> str:
    """The member to keep (see :func:`describe`)."""
    return min(members, key=lambda m: (-mentions.get(m, 1), -len(cores.get(m, "")), len(names.get(m, "")), m))


def batches(items: Iterable[T], max_size: int, size: Callable[[T], int] = len,
            max_items: int | None = None) -> Iterator[list[T]]:
    """Consecutive items grouped so that a batch's summed ``size`` is at most ``max_size`` (a larger
    item is a batch alone) and it holds at most ``max_items`` items: one set of queries per batch."""
    batch: list[T] = []
    total = 0
    for item in items:
        n = size(item)
        if batch and (total + n > max_size or (max_items is not None and len(batch) >= max_items)):
            yield batch
            batch, total = [], 0
        batch.append(item)
        total += n
    if batch:
        yield batch


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
