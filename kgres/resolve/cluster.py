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

from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database, batches
from kgres.resolve.ambiguity import PRIOR_MARGIN, Ambiguity
from kgres.resolve.pairs import PairContext, PairFn
from kgres.resolve.score import PairScore, ScoreConfig


class ClusterConfig(BaseModel):
    """``[resolve.cluster]``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cohesion: float = Field(0.8, gt=0, le=1)
    max_component: int = Field(300, ge=2, le=5000)


@dataclass(frozen=True)
class Group:
    """A cohesive group of at least two entities, the one to keep, and why."""

    members: tuple[str, ...]
    canonical: str
    confidence: float
    evidence: dict[str, Evidence]  # member id -> its strongest link inside the group


@dataclass(frozen=True)
class Evidence:
    """Why one member joined its group: the member it is linked to, how strongly, by which rule, and
    the pair's signals. Stored as JSON on the member's mentions' ``REFERS_TO`` (``evidence``)."""

    linked_to: str
    score: float
    rule: str | None
    signals: dict[str, Any] | None = None
    reason: str | None = None  # a person's or the judge's words

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("linked_to", self.linked_to), ("score", self.score), ("rule", self.rule),
                                  ("signals", self.signals), ("reason", self.reason)) if v is not None or k == "rule"}


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
        evidence[m] = Evidence(linked_to=o, score=p.score, rule=p.signals.get("name_rule"), signals=p.signals)
        link_scores += [q.score for q, _ in known]
    return Group(members=tuple(sorted(members)), canonical=canonical,
                 confidence=round(sum(link_scores) / len(link_scores), 4), evidence=evidence)


def canonical_of(members: list[str], mentions: dict[str, int], names: dict[str, str],
                 cores: dict[str, str]) -> str:
    """The member to keep (see :func:`describe`)."""
    return min(members, key=lambda m: (-mentions.get(m, 1), -len(cores.get(m, "")), len(names.get(m, "")), m))


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


def cluster(db: Database, run_id: str, score: ScoreConfig, cfg: ClusterConfig = ClusterConfig(),
            ambiguity: Ambiguity | None = None) -> tuple[list[Group], int]:
    """Cohesive groups (size >= 2) inside each connected component of the run's auto pairs.

    A component larger than ``cfg.max_component`` (checking cohesion is quadratic in its size) is
    split by keeping only its stronger auto pairs, raising the bar until every piece fits; the
    number of components split that way is returned with the groups.
    """
    edges = [(r["a"], r["b"], r["score"]) for r in db.stream("resolve_cluster_pairs", run_id=run_id)]
    pieces, oversized = [], 0
    for component in edge_components(edges):
        split = split_component(component, edges, score.auto_threshold, cfg.max_component)
        oversized += len(split) > 1
        pieces += [p for p in split if len(p) > 1]
    if ambiguity is None:
        from kgres.resolve.score import load_ambiguity

        ambiguity = load_ambiguity(db)
    groups: list[Group] = []
    for batch in batches(pieces, CLUSTER_BATCH_IDS):  # three queries per batch, not per component
        ctx = PairContext.load(db, batch, score, ambiguity)
        for piece in batch:
            groups += groups_of(ctx, [i for i in piece if i in ctx.sides], ctx.compare, score.auto_threshold,
                                cfg.cohesion)
    return groups, oversized


CLUSTER_BATCH_IDS = 2000


def edge_components(edges: list[tuple[str, str, float]]) -> list[list[str]]:
    uf = UnionFind()
    for a, b, _ in edges:
        uf.union(a, b)
    return uf.components()


def split_component(component: list[str], edges: list[tuple[str, str, float]], bar: float, limit: int) -> list[list[str]]:
    """Pieces of ``component`` of at most ``limit`` members, cutting its weakest auto edges first
    (id-ordered slices when every edge is equally strong)."""
    if len(component) <= limit:
        return [component]
    inside = set(component)
    stronger = sorted({s for a, b, s in edges if a in inside and s > bar})
    if not stronger:
        # All edges equally strong (1.0 ties: same key, or a name rule plus the neighbour bonus):
        # nothing principled to cut. Check cohesion in id-ordered slices instead of giving up on
        # the whole component; the next pass joins slices whose canonicals still belong together.
        ordered = sorted(component)
        return [ordered[i:i + limit] for i in range(0, len(ordered), limit)]
    kept = [(a, b, s) for a, b, s in edges if a in inside and b in inside and s >= stronger[0]]
    pieces = edge_components(kept)
    covered = {x for p in pieces for x in p}
    pieces += [[x] for x in component if x not in covered]
    return [q for p in pieces for q in split_component(p, kept, stronger[0], limit)]


def groups_of(ctx: PairContext, ids: list[str], pair: PairFn, auto: float, cohesion: float,
              mentions: dict[str, int] | None = None) -> list[Group]:
    """Cohesive groups of one component of ``ctx``'s entities, given how any two of them compare
    (``pair``; usually ``ctx.compare``, which knows the graph's ambiguous short forms: see
    :mod:`kgres.resolve.ambiguity`). ``mentions`` overrides the stored mention counts."""
    mentions = mentions if mentions is not None else ctx.mentions(ids)
    names, cores = ctx.names(ids), ctx.cores(ids)
    parts = cohesive_groups(ids, pair, mentions, auto, cohesion)
    return [describe(p, pair, mentions, names, cores) for p in parts if len(p) > 1]
