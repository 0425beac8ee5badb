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

import json
from collections.abc import Iterable
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
    max_component: int = Field(300, ge=2, le=5000)  # rules strategy: largest component checked pair by pair
    max_names: int = Field(64, ge=1, le=10_000)  # default: distinct names a group keeps for constraint checks
    # default: every pair across two groups whose names say something must be at least this likely
    # the same, or the groups stay apart (complete linkage: the chain A~B, B~C with A!~C keeps C out)
    link_floor: float = Field(0.5, ge=0, le=1)
    # default: ... and their mean probability at least this (rules strategy: ``cohesion``)
    mean_floor: float = Field(0.6, ge=0, le=1)
    tie_margin: float = Field(0.05, ge=0, le=1)  # default: probabilities this close tie between two homes


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
             cores: dict[str, str], new: frozenset[str] = frozenset()) -> Group:
    """Canonical member and per-member evidence.

    Canonical: as :func:`canonical_of` chooses it.
    """
    canonical = canonical_of(members, mentions, names, cores, new)
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
                 cores: dict[str, str], new: frozenset[str] = frozenset()) -> str:
    """The member to keep: one the graph had before an increment (not in ``new``), so a resolved
    entity keeps its id when copies of its name arrive; then one whose name the group mentions most
    (:func:`name_support`: 1,114 unmerged copies of "Bill Gates" and one "Bill" of 12 mentions are
    "Bill Gates"); then the member with most mentions; then one whose spelling the group writes most
    (305 single copies of "Warren Buffett" and two of "warren buffett" are "Warren Buffett"); then the
    most informative name (longest normalised key, so "Sherlock Holmes" beats "Holmes"), then the
    plainer spelling of it (shorter raw name, so "Sherlock Holmes" beats "Mr. Sherlock Holmes"), then
    the smallest id."""
    support = name_support([cores.get(m, "") for m in members], [mentions.get(m, 1) for m in members])
    written: dict[str, int] = {}
    for m in members:
        written[names.get(m, "")] = written.get(names.get(m, ""), 0) + mentions.get(m, 1)
    return min(members, key=lambda m: (m in new, -support[cores.get(m, "")], -mentions.get(m, 1),
                                       -written[names.get(m, "")], -len(cores.get(m, "")), len(names.get(m, "")), m))


MAX_NAMES_COMPARED = 50  # distinct names of a group whose short forms are credited to the names they shorten
RARE_FULL_NAME = 10  # ... only when the full name is written at least 1/10 as often as the short form


def name_support(cores: list[str], mentions: list[int]) -> dict[str, int]:
    """Per distinct name key of a group, the mentions of the members carrying it, plus those of the
    members carrying a shorter name of its words ("holmes" counts for "sherlock holmes": a short form
    is read as the full name it stands for, so 60 copies of "Holmes" do not outweigh a "Sherlock
    Holmes" of 50 mentions), unless the full name is written less than a tenth as often as the short one
    (:data:`RARE_FULL_NAME`: two "authentication and authorization" do not name 427 "Authentication").
    With more than :data:`MAX_NAMES_COMPARED` distinct names, own mentions only."""
    own: dict[str, int] = {}
    for core, n in zip(cores, mentions):
        own[core] = own.get(core, 0) + n
    if len(own) > MAX_NAMES_COMPARED:
        return own
    words = {c: set(c.split()) for c in own}
    return {c: n + sum(own[d] for d in own if d != c and words[d] and words[d] < words[c]
                       and n * RARE_FULL_NAME >= own[d]) for c, n in own.items()}


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
    edges = [(r["a"], r["b"], r["score"]) for r in db.stream("resolve_cluster_pairs", _plain=True, run_id=run_id)]
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


def split_component(component: list[str], edges: list[tuple[str, str, float]], bar: float,
                    limit: int) -> list[list[str]]:
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


# -- one pass over scored pairs (the default strategy) ----------------------------------------------

class ClusterStats(BaseModel):
    """What one-pass clustering did: pairs considered, joins made, and why others were refused."""

    auto_pairs: int
    joins: int
    refused: dict[str, int]  # constraint, weak_link, cohesion, ambiguous_short_form, namesake
    groups: int


def cluster_rows(db: Database, rows: Iterable[dict[str, Any]], cfg: ClusterConfig = ClusterConfig(),
                 sides_query: str = "resolve_cluster_sides", batch_ids: int = 2000) -> tuple[list[Group], ClusterStats]:
    """Groups from scored pairs (``a``, ``b``, ``p``, ``band``, ``name_rule``, ``vetoed``, ``capped``,
    ``signals``) in one pass, strongest first (constraint-aware union-find). ``sides_query`` loads the entities
    (``resolve_cluster_sides``; the threshold sweep reads retired ones too).

    An auto pair joins the two groups it connects unless (checked between the whole groups, from
    summaries kept up to date as groups grow): a constraint forbids any pair of their names, or a
    NOT_SAME_AS or a non-synonym relation separates any two members, or two members' names each replace a
    word inside (an ``apart`` pair: "mining generalized association rules" / "mining quantitative
    association rules", which a "mining association rules" close to both must not bridge) (``constraint``);
    a scored pair
    across them whose names say something is less likely the same than ``link_floor`` (``weak_link``:
    complete linkage on evidence, so the chain A~B, B~C, A!~C keeps C out); the mean probability of
    those pairs is below ``mean_floor`` (``cohesion``); or one side is a single entity with an equally
    strong link to a group it could not share with this one, and neither group has twice the other's
    mentions (``ambiguous_short_form``: a bare "Holmes" between Sherlock and Mycroft waits for context); or
    the side with fewer mentions must stay apart from a group the other side has an auto pair with
    (``namesake``: it waits rather than forbid that join, and gets its turn after the pass if that join
    did not happen). Pairs whose names share nothing,
    and pairs scoring held out of the auto band because their names say too little (``capped``: two
    bare "Holmes"), neither link nor veto. Cost: one sort of the auto pairs, and per pair a bounded check; no
    component is too large.
    """
    from kgres.resolve.score.constraints import keeps_apart, name_conflict
    from kgres.resolve.score.sides import Side

    auto: list[tuple[float, str, str, str | None, str | None]] = []
    # entity -> other -> [count, sum, min] of the probabilities of pairs whose names say something
    adjacency: dict[str, dict[str, list[float]]] = {}
    distinct: list[tuple[str, str]] = []  # pairs whose names each replace a word inside (``apart``)
    for r in rows:
        if not clustering_reads(r["vetoed"], r["band"], r["name_rule"], r.get("capped", False), r.get("apart", False)):
            continue
        if r.get("apart"):
            distinct.append((r["a"], r["b"]))
            continue
        if r["band"] == "auto":
            auto.append((-r["p"], r["a"], r["b"], r["name_rule"], r["signals"]))
        if r["name_rule"] not in UNKNOWN_NAMES and not r.get("capped"):
            for x, y in ((r["a"], r["b"]), (r["b"], r["a"])):
                adjacency.setdefault(x, {})[y] = [1.0, r["p"], r["p"]]
    auto.sort()
    ids = sorted({i for _, a, b, _, _ in auto for i in (a, b)})
    sides: dict[str, Side] = {}
    apart: dict[str, set[str]] = {}
    for batch in batches(ids, batch_ids):
        for r in db.read(sides_query, _plain=True, ids=batch):
            e = r["e"]
            sides[e["id"]] = Side.from_row(e)
            blocked = set(r["apart"]) | {b for b, p in r["related"] if keeps_apart(p)}
            apart[e["id"]] = blocked

    parent: dict[str, str] = {i: i for i in ids}
    members: dict[str, list[str]] = {i: [i] for i in ids}
    mentions = {i: sides[i].mentions if i in sides else 1 for i in ids}
    names: dict[str, dict[tuple, Side]] = {i: _name_set(sides[i], cfg.max_names) for i in ids if i in sides}
    idents: dict[str, dict[str, set[str]]] = {i: _id_map(sides[i]) for i in ids if i in sides}
    links: dict[str, dict[str, list[float]]] = {i: {} for i in ids}  # root -> root -> [count, sum, min]
    for x, others in adjacency.items():
        if x in parent:
            links[x] = {y: list(v) for y, v in others.items() if y in parent}
    blocked_by: dict[str, set[str]] = {i: set(apart.get(i, ())) for i in ids}
    for a, b in distinct:
        if a in parent and b in parent:
            blocked_by[a].add(b)
            blocked_by[b].add(a)
    auto_of: dict[str, list[tuple[float, str]]] = {}
    for p, a, b, _, _ in auto:
        auto_of.setdefault(a, []).append((-p, b))
        auto_of.setdefault(b, []).append((-p, a))
    conflict_cache: dict[tuple[tuple, tuple], bool] = {}
    refused = {"constraint": 0, "weak_link": 0, "cohesion": 0, "ambiguous_short_form": 0, "namesake": 0}
    parked: set[str] = set()
    namesakes: set[str] = set()  # parked groups that a join would have set against a better-supported one
    weight = dict(mentions)  # root -> mentions of its group
    joins = 0

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def incompatible(ra: str, rb: str) -> bool:
        small, other = (ra, rb) if len(blocked_by[ra]) <= len(blocked_by[rb]) else (rb, ra)
        if any(e in parent and find(e) == other for e in blocked_by[small]):
            return True
        ia, ib = idents.get(ra, {}), idents.get(rb, {})
        if any(not (ia[k] & ib[k]) for k in ia.keys() & ib.keys()):
            return True
        for ka, na in names.get(ra, {}).items():
            for kb, nb in names.get(rb, {}).items():
                key = (ka, kb)
                if key not in conflict_cache:
                    conflict_cache[key] = name_conflict(na, nb) is not None
                if conflict_cache[key]:
                    return True
        return False

    def ambiguous(single: str, home: str, p: float) -> bool:
        """``single`` ties between ``home`` and a group it could not share with ``home``."""
        for q, other in auto_of.get(single, ()):
            if q < p - cfg.tie_margin:
                continue
            rival = find(other)
            if rival in (home, single) or rival in namesakes:
                continue
            if incompatible(home, rival):
                support = sum(mentions[m] for m in members[home])
                rival_support = sum(mentions[m] for m in members[rival])
                if support < PRIOR_MARGIN * rival_support:
                    return True
        return False

    def blocks_home(side: str, home: str) -> bool:
        """The group ``side``, with fewer mentions than ``home``, is kept apart from a group that
        ``home`` has an auto pair with: joined, it would forbid that better-supported join (a "Murdoch"
        related to "Rupert Murdoch" joining the 194 other "Murdoch" copies, who name Rupert)."""
        if not blocked_by[side] or weight[side] >= weight[home]:
            return False
        for e in blocked_by[side]:
            rival = find(e) if e in parent else None
            if rival is None or rival == home or rival in parked or rival not in links[home]:
                continue
            few, many = (home, rival) if len(members[home]) <= len(members[rival]) else (rival, home)
            if any(find(o) == many for m in members[few] for _, o in auto_of.get(m, ())):
                return True
        return False

    def attempt(a: str, b: str, p: float, first: bool) -> None:
        nonlocal joins
        ra, rb = find(a), find(b)
        if ra == rb or a in parked or b in parked:
            return
        if incompatible(ra, rb):
            refused["constraint"] += 1
            return
        stats = links[ra].get(rb)
        if stats is not None and stats[2] < cfg.link_floor:
            refused["weak_link"] += 1
            return
        if stats is not None and stats[1] / stats[0] < cfg.mean_floor:
            refused["cohesion"] += 1
            return
        side = next((r for r, home in ((ra, rb), (rb, ra)) if blocks_home(r, home)), None) if first else None
        if side is not None:
            parked.update(members[side])
            namesakes.add(side)
            refused["namesake"] += 1
            return
        single = a if len(members[ra]) == 1 else b if len(members[rb]) == 1 else None
        if single is not None and ambiguous(single, rb if single == a else ra, p):
            parked.add(single)
            refused["ambiguous_short_form"] += 1
            return
        big, small = (ra, rb) if (len(members[ra]), rb) >= (len(members[rb]), ra) else (rb, ra)
        _absorb(big, small, parent, members, names, idents, blocked_by, links, cfg.max_names)
        weight[big] += weight.pop(small)
        joins += 1

    for neg_p, a, b, _, _ in auto:
        attempt(a, b, -neg_p, first=True)
    # A namesake was kept apart in case its home's stronger join happened; where it did not, the
    # namesake's pairs get their turn now, in the same order.
    retry = {m for r in namesakes for m in members[r]}
    parked -= retry
    namesakes.clear()
    for neg_p, a, b, _, _ in auto:
        if a in retry or b in retry:
            attempt(a, b, -neg_p, first=False)

    evidence_of: dict[str, tuple[float, str, str | None, str | None]] = {}
    for neg_p, a, b, rule, signals in auto:
        if find(a) == find(b):
            for x, y in ((a, b), (b, a)):
                evidence_of.setdefault(x, (-neg_p, y, rule, signals))
    groups = []
    for root in sorted(r for r in members if find(r) == r and len(members[r]) > 1):
        ms = sorted(members[root])
        canonical = canonical_of(ms, mentions, {m: sides[m].name if m in sides else "" for m in ms},
                                 {m: sides[m].core if m in sides else "" for m in ms})
        ev = {}
        for m in ms:
            p, other, rule, signals = evidence_of[m]
            ev[m] = Evidence(linked_to=other, score=round(p, 6), rule=rule,
                             signals=json.loads(signals) if signals else None)
        groups.append(Group(members=tuple(ms), canonical=canonical,
                            confidence=round(sum(e.score for e in ev.values()) / len(ev), 4), evidence=ev))
    return groups, ClusterStats(auto_pairs=len(auto), joins=joins, refused=refused, groups=len(groups))


# Name levels that say nothing about identity: such a pair neither links nor vetoes in clustering.
UNKNOWN_NAMES = frozenset({None, "none", "overlap_20", "disjoint"})


def clustering_reads(vetoed: bool, band: str, name_rule: str | None, capped: bool, apart: bool = False) -> bool:
    """Whether :func:`cluster_rows` does anything with a scored pair: an auto pair may join two groups,
    a pair whose names say something (not ``capped``) weighs in the links between groups, and a pair
    whose names each replace a word inside (``apart``: capped, not persons) keeps their groups apart;
    a vetoed pair, and any other whose names say nothing, it skips. A score stage keeps only these
    outcomes for clustering (20k generated mentions: 10k of 325k pairs)."""
    return not vetoed and (band == "auto" or apart or (name_rule not in UNKNOWN_NAMES and not capped))


def _name_set(side: Any, cap: int) -> dict[tuple, Any]:
    """An entity's distinct names as constraint-relevant keys (what name_conflict reads)."""
    out = {}
    for s in side.names():
        key = (s.core, s.type, s.gender, s.title, s.numbers, s.tokens)
        if key not in out and len(out) < cap:
            out[key] = s
    return out


def _id_map(side: Any) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for k, v in side.identifiers:
        out.setdefault(k, set()).add(v)
    return out


def _absorb(big: str, small: str, parent: dict, members: dict, names: dict, idents: dict, blocked_by: dict,
            links: dict, cap: int) -> None:
    """Union ``small`` into ``big``: every summary moves, the smaller into the larger."""
    parent[small] = big
    members[big].extend(members.pop(small))
    bn = names.setdefault(big, {})
    for key, s in names.pop(small, {}).items():
        if key not in bn and len(bn) < cap:
            bn[key] = s
    bi = idents.setdefault(big, {})
    for k, vs in idents.pop(small, {}).items():
        bi.setdefault(k, set()).update(vs)
    blocked_by[big] |= blocked_by.pop(small)
    moving = links.pop(small)
    moving.pop(big, None)
    links[big].pop(small, None)
    for other, (count, total, low) in moving.items():
        mine = links[big].get(other)
        merged = [count, total, low] if mine is None else [mine[0] + count, mine[1] + total, min(mine[2], low)]
        links[big][other] = merged
        theirs = links[other]
        theirs.pop(small, None)
        theirs[big] = list(merged)
