"""``kgres resolve``: normalize → block → score → cluster → merge, as one recorded ResolutionRun.

Deterministic: the same graph and config give the same groups (ordering and tie-breaks are by id).
The run's full config is stored on its ``ResolutionRun`` node, so it can be replayed.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import replace
from collections.abc import Callable

from pydantic import BaseModel, ConfigDict, Field

from kgres import __version__
from kgres.block import BlockConfig, block
from kgres.cluster import Group, UnionFind, ambiguous_surnames, cohesive_groups, describe
from kgres.db import Database
from kgres.merge import apply_groups
from kgres.normalize import normalize
from kgres.score import PairScore, ScoreConfig, Side, compare, score

Step = Callable[[str], None]


class ClusterConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cohesion: float = Field(0.8, gt=0, le=1)
    max_component: int = Field(300, ge=2, le=5000)


class ResolveConfig(BaseModel):
    """Everything one resolution run uses; stored on its ResolutionRun node."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strip_legal_suffixes: bool = False
    max_passes: int = Field(3, ge=1, le=10)  # later passes see merged neighbours (context for "Holmes")
    block: BlockConfig = BlockConfig()
    score: ScoreConfig = ScoreConfig()
    cluster: ClusterConfig = ClusterConfig()


class ResolveStats(BaseModel):
    run_id: str
    passes: int
    entities_before: int
    entities_after: int
    candidate_pairs: int
    pairs_by_strategy: dict[str, int]
    bands: dict[str, int]
    groups: int
    merged_entities: int
    oversized_components: int
    seconds: dict[str, float]


def resolve(db: Database, cfg: ResolveConfig = ResolveConfig(), on_step: Step = lambda m: None,
            run_id: str | None = None) -> ResolveStats:
    """Run the whole chain, in passes until one merges nothing (at most ``max_passes``).

    Each pass is its own ResolutionRun (``<run_id>``, ``<run_id>.2``, ...; later ones carry
    ``parent``), because a pass re-scores pairs on the graph the previous pass merged: an ambiguous
    "Holmes" parked in pass 1 can be placed in pass 2, once "Watson" and "Dr. Watson" are one
    neighbour. ``kgres rollback <run_id>`` undoes all passes.
    """
    base = run_id or f"run-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}"
    before = _entity_count(db)
    passes: list[ResolveStats] = []
    focus: list[str] | None = None  # pass 1 looks at everything; later passes at what changed
    for n in range(1, cfg.max_passes + 1):
        pass_id = base if n == 1 else f"{base}.{n}"
        stats, focus = _one_pass(db, cfg, pass_id, parent=None if n == 1 else base, focus=focus,
                                 on_step=lambda m, n=n: on_step(f"pass {n}: {m}"))
        passes.append(stats)
        if stats.merged_entities == 0:
            break
    total = ResolveStats(
        run_id=base, passes=len(passes), entities_before=before, entities_after=_entity_count(db),
        candidate_pairs=sum(p.candidate_pairs for p in passes),
        pairs_by_strategy=_sum_dicts(p.pairs_by_strategy for p in passes),
        bands=_sum_dicts(p.bands for p in passes), groups=sum(p.groups for p in passes),
        merged_entities=sum(p.merged_entities for p in passes),
        oversized_components=max(p.oversized_components for p in passes),
        seconds={k: round(v, 3) for k, v in _sum_dicts(p.seconds for p in passes).items()})
    return total


def _one_pass(db: Database, cfg: ResolveConfig, run_id: str, parent: str | None, focus: list[str] | None,
              on_step: Step) -> tuple[ResolveStats, list[str]]:
    """One block-score-cluster-merge pass; returns its stats and the canonical ids it merged into."""
    db.write("run_start", run_id=run_id, config=cfg.model_dump_json(), kgres_version=__version__,
             strategy="default", parent=parent)
    before = _entity_count(db)
    seconds: dict[str, float] = {}

    def timed(name: str, fn):
        on_step(name)
        t = time.perf_counter()
        out = fn()
        seconds[name] = round(time.perf_counter() - t, 3)
        return out

    timed("normalize", lambda: normalize(db, strip_legal=cfg.strip_legal_suffixes))
    b = timed("block", lambda: block(db, run_id, cfg.block, focus=focus))
    s = timed("score", lambda: score(db, run_id, cfg.score))
    groups, oversized = timed("cluster", lambda: cluster(db, run_id, cfg))
    merged = timed("merge", lambda: apply_groups(db, groups, run_id, method="rules", decided_by="kgres resolve"))
    stats = ResolveStats(run_id=run_id, passes=1, entities_before=before, entities_after=_entity_count(db),
                         candidate_pairs=b.pairs, pairs_by_strategy=b.pairs_by_strategy, bands=s.bands,
                         groups=len(groups), merged_entities=merged, oversized_components=oversized,
                         seconds=seconds)
    db.write("run_finish", run_id=run_id, stats=stats.model_dump_json())
    return stats, sorted({g.canonical for g in groups})


def _sum_dicts(ds) -> dict:
    out: dict = {}
    for d in ds:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def cluster(db: Database, run_id: str, cfg: ResolveConfig) -> tuple[list[Group], int]:
    """Cohesive groups (size >= 2) inside each connected component of the run's auto pairs.

    A component larger than ``cluster.max_component`` (checking cohesion is quadratic in its size)
    is split by keeping only its stronger auto pairs, raising the bar until every piece fits; the
    number of components split that way is returned with the groups.
    """
    edges = [(r["a"], r["b"], r["score"]) for r in db.stream("cluster_auto_pairs", run_id=run_id)]
    groups, oversized = [], 0
    for component in _components(edges):
        pieces = _split(component, edges, cfg.score.auto_threshold, cfg.cluster.max_component)
        oversized += len(pieces) > 1
        for piece in pieces:
            if len(piece) > 1:
                groups += _component_groups(db, piece, cfg)
    return groups, oversized


def _components(edges: list[tuple[str, str, float]]) -> list[list[str]]:
    uf = UnionFind()
    for a, b, _ in edges:
        uf.union(a, b)
    return uf.components()


def _split(component: list[str], edges: list[tuple[str, str, float]], bar: float, limit: int) -> list[list[str]]:
    """Pieces of ``component`` of at most ``limit`` members, cutting its weakest auto edges first."""
    if len(component) <= limit:
        return [component]
    inside = set(component)
    stronger = sorted({s for a, b, s in edges if a in inside and s > bar})
    if not stronger:  # all edges equally strong: nothing principled to cut; leave it unmerged
        return [[x] for x in component]
    kept = [(a, b, s) for a, b, s in edges if a in inside and b in inside and s >= stronger[0]]
    pieces = _components(kept)
    covered = {x for p in pieces for x in p}
    pieces += [[x] for x in component if x not in covered]
    return [q for p in pieces for q in _split(p, kept, stronger[0], limit)]


def _component_groups(db: Database, ids: list[str], cfg: ResolveConfig) -> list[Group]:
    rows = {r["e"]["id"]: r["e"] for r in db.query("cluster_members", ids=ids)}
    sides = {i: Side.from_row(r) for i, r in rows.items()}
    forbidden = {(r["a"], r["b"]) for r in db.query("cluster_not_same_as", ids=ids)}
    related = {(r["a"], r["b"]): r["predicates"] for r in db.query("cluster_relations", ids=ids)}
    cache: dict[tuple[str, str], PairScore] = {}

    def raw(x: str, y: str) -> PairScore:
        key = (x, y) if x < y else (y, x)
        if key not in cache:
            cache[key] = compare(sides[key[0]], sides[key[1]], cfg.score, not_same_as=key in forbidden,
                                 predicates_between=related.get(key, ()))
        return cache[key]

    ambiguous = ambiguous_surnames(sides, raw)
    review_mid = round((cfg.score.auto_threshold + cfg.score.review_threshold) / 2, 4)

    def pair(x: str, y: str) -> PairScore:
        p = raw(x, y)
        a, b = sides[x], sides[y]
        if p.band == "auto" and a.core == b.core and a.core in ambiguous:
            # "Holmes" and "Holmes" may be Sherlock and Mycroft: the shared name says nothing (unknown:
            # neither links nor vetoes), so each is placed by its links to full names and its context.
            return replace(p, score=min(p.score, review_mid), band="review", known=False,
                           signals={**p.signals, "ambiguous_surname": a.core})
        return p

    mentions = {i: r.get("mention_count") or 1 for i, r in rows.items()}
    names = {i: r.get("name") or "" for i, r in rows.items()}
    cores = {i: s.core for i, s in sides.items()}
    parts = cohesive_groups(list(rows), pair, mentions, cfg.score.auto_threshold, cfg.cluster.cohesion)
    return [describe(p, pair, mentions, names, cores) for p in parts if len(p) > 1]


def _entity_count(db: Database) -> int:
    return db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]

