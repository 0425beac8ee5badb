"""``kgres resolve``: normalize → collapse → embed → block → score → cluster → merge, as recorded ResolutionRuns.

Deterministic: the same graph and config give the same groups (ordering and tie-breaks are by id,
embeddings and GDS algorithms are seeded). The run's full config is stored on its ``ResolutionRun``
node, so it can be replayed, and an interrupted run is finished by the next ``kgres resolve``.

Strategies: ``default`` (kgres) or a baseline from :mod:`kgres.baselines`. Modes (default strategy):
``merge`` (direct merge), ``synonym`` (``SAME_AS`` links from members to canonical, nothing moves),
``merge+synonym`` (merge the auto groups, then link the remaining review-band pairs with ``SAME_AS``).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kgres import __version__, baselines
from kgres.block import BlockConfig, block
from kgres.ambiguity import Ambiguity
from kgres.collapse import collapse
from kgres.cluster import Group, batches, UnionFind, cohesive_groups, describe
from kgres.db import Database
from kgres.embed import EmbedConfig, embed, reindex
from kgres.merge import apply_groups, payload, refresh
from kgres.normalize import normalize
from kgres.score import PairScore, ScoreConfig, Side, compare, load_ambiguity, score

Step = Callable[[str], None]
Strategy = Literal["default", "exact", "exact-name", "cosine", "deg-rag"]
Mode = Literal["merge", "synonym", "merge+synonym"]
STRATEGIES: tuple[str, ...] = Strategy.__args__  # type: ignore[attr-defined]
# A resolve that deleted at least this share of the entities ends by rebuilding the entity vector
# index (kgres.embed.reindex): the deleted vectors doubled retrieval's vector search at 100k mentions.
# A small incremental run leaves it to Lucene's own segment merges, which reclaim deletes over time.
REINDEX_SHARE = 0.1


class ClusterConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cohesion: float = Field(0.8, gt=0, le=1)
    max_component: int = Field(300, ge=2, le=5000)


class BaselineConfig(BaseModel):
    """Parameters of the comparison strategies (see kgres.baselines)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    cosine_threshold: float = Field(0.8, ge=-1, le=1)
    deg_rag_target: float = Field(0.4, gt=0, lt=1)


class ResolveConfig(BaseModel):
    """Everything one resolution run uses; stored on its ResolutionRun node."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: Strategy = "default"
    mode: Mode = "merge"
    strip_legal_suffixes: bool = False
    max_passes: int = Field(3, ge=1, le=10)  # later passes see merged neighbours (context for "Holmes")
    collapse: bool = True  # merge identical-name copies before blocking (kgres.collapse); not in synonym mode
    embed: EmbedConfig = EmbedConfig()
    block: BlockConfig = BlockConfig()
    score: ScoreConfig = ScoreConfig()
    cluster: ClusterConfig = ClusterConfig()
    baseline: BaselineConfig = BaselineConfig()


class ResolveStats(BaseModel):
    run_id: str
    strategy: str = "default"
    mode: str = "merge"
    resumed: bool = False
    passes: int
    entities_before: int
    entities_after: int
    candidate_pairs: int
    pairs_by_strategy: dict[str, int]
    bands: dict[str, int]
    groups: int
    merged_entities: int
    collapsed_entities: int = 0  # of merged_entities, those merged as identical-name copies (collapse)
    collapse_left: int = 0  # identical-name copies collapse left to pair scoring (conflicted sets too large)
    synonym_links: int = 0
    oversized_components: int
    seconds: dict[str, float]


def resolve(db: Database, cfg: ResolveConfig = ResolveConfig(), on_step: Step = lambda m: None,
            run_id: str | None = None, fastrp_dimensions: int = 128) -> ResolveStats:
    """Run the chain in passes until one merges nothing (at most ``max_passes``).

    Each pass is its own ResolutionRun (``<run_id>``, ``<run_id>.2``, ...; later ones carry
    ``parent``), because a pass re-scores pairs on the graph the previous pass merged: an ambiguous
    "Holmes" parked in pass 1 can be placed in pass 2, once "Watson" and "Dr. Watson" are one
    neighbour. ``kgres rollback <run_id>`` undoes all passes.

    If an earlier ``resolve`` was interrupted (a run still 'running'), that run is finished first,
    with its own stored config, and its stats are returned (``resumed`` is true).
    """
    unfinished = db.query("run_unfinished", strategies=list(STRATEGIES))
    if unfinished:
        return _resume(db, unfinished[0], on_step, fastrp_dimensions)
    base = run_id or f"run-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}"
    return _passes(db, cfg, base, first=1, focus=None, on_step=on_step, fastrp_dimensions=fastrp_dimensions)


def _resume(db: Database, run: dict, on_step: Step, fastrp_dimensions: int) -> ResolveStats:
    """Finish an interrupted run: refresh what it merged, then redo its pass (every stage is idempotent)."""
    cfg = ResolveConfig.model_validate_json(run["config"])
    base = run["parent"] or run["id"]
    first = int(run["id"].rsplit(".", 1)[1]) if run["parent"] else 1
    on_step(f"resuming {run['id']}")
    canonicals = [r["id"] for r in db.query("run_canonicals", run_id=run["id"])]
    for start in range(0, len(canonicals), 500):
        refresh(db, canonicals[start:start + 500])  # a merge batch may have committed without its refresh
    stats = _passes(db, cfg, base, first=first, focus=run["focus"], on_step=on_step,
                    fastrp_dimensions=fastrp_dimensions)
    return stats.model_copy(update={"resumed": True})


def _passes(db: Database, cfg: ResolveConfig, base: str, first: int, focus: list[str] | None, on_step: Step,
            fastrp_dimensions: int) -> ResolveStats:
    before = _entity_count(db)
    passes: list[ResolveStats] = []
    max_passes = cfg.max_passes if cfg.strategy == "default" and cfg.mode != "synonym" else 1
    # Collapse is a run of its own (the first), so that no mention moves twice within one run: a
    # copy collapsed into "Sherlock Holmes" may move on with it to "Mr. Sherlock Holmes", and each
    # move must be undoable by its own run.
    collapse_run = cfg.strategy == "default" and cfg.collapse and cfg.mode != "synonym"
    for n in range(first, max(first, max_passes + collapse_run) + 1):
        pass_id = base if n == 1 else f"{base}.{n}"
        only_collapse = collapse_run and n == 1
        stats, focus = _one_pass(db, cfg, pass_id, parent=None if n == 1 else base, focus=focus,
                                 on_step=lambda m, n=n: on_step(f"pass {n}: {m}"),
                                 fastrp_dimensions=fastrp_dimensions, only_collapse=only_collapse)
        passes.append(stats)
        if only_collapse:
            focus = None  # the first scored pass looks at every entity
        elif stats.merged_entities == 0:
            break
    if cfg.strategy == "default" and cfg.mode == "merge+synonym":
        last = passes[-1].run_id
        linked = db.query("same_as_review", run_id=last, decided_by="kgres resolve")[0]["linked"]
        passes[-1] = passes[-1].model_copy(update={"synonym_links": passes[-1].synonym_links + linked})
    seconds = _sum_dicts(p.seconds for p in passes)
    merged = sum(p.merged_entities for p in passes)
    if merged and merged >= REINDEX_SHARE * before:
        on_step("reindex")
        t = time.perf_counter()
        reindex(db)
        seconds["reindex"] = time.perf_counter() - t
    return ResolveStats(
        run_id=base, strategy=cfg.strategy, mode=cfg.mode, passes=len(passes), entities_before=before,
        entities_after=_entity_count(db), candidate_pairs=sum(p.candidate_pairs for p in passes),
        pairs_by_strategy=_sum_dicts(p.pairs_by_strategy for p in passes),
        bands=_sum_dicts(p.bands for p in passes), groups=sum(p.groups for p in passes),
        merged_entities=merged,
        collapsed_entities=sum(p.collapsed_entities for p in passes),
        collapse_left=sum(p.collapse_left for p in passes),
        synonym_links=sum(p.synonym_links for p in passes),
        oversized_components=max(p.oversized_components for p in passes),
        seconds={k: round(v, 3) for k, v in seconds.items()})


def _one_pass(db: Database, cfg: ResolveConfig, run_id: str, parent: str | None, focus: list[str] | None,
              on_step: Step, fastrp_dimensions: int, only_collapse: bool = False) -> tuple[ResolveStats, list[str]]:
    """One pass of the configured strategy, or (``only_collapse``) the run that merges identical-name
    copies; returns its stats and the canonical ids it merged into."""
    db.write("run_start", run_id=run_id, config=cfg.model_dump_json(), kgres_version=__version__,
             strategy=cfg.strategy, parent=parent, focus=focus)
    before = _entity_count(db)
    seconds: dict[str, float] = {}

    def timed(name: str, fn):
        on_step(name)
        t = time.perf_counter()
        out = fn()
        seconds[name] = round(time.perf_counter() - t, 3)
        return out

    db.replan()  # the graph may have just been loaded or merged in bulk
    timed("normalize", lambda: normalize(db, strip_legal=cfg.strip_legal_suffixes))
    who = "kgres resolve" if cfg.strategy == "default" else baselines.DECIDED_BY.format(cfg.strategy)
    if only_collapse:
        collapsed, left = timed("collapse", lambda: _collapse(db, cfg, run_id, who))
        merged = sum(len(g.members) - 1 for g in collapsed)
        stats = ResolveStats(run_id=run_id, strategy=cfg.strategy, mode=cfg.mode, passes=1, entities_before=before,
                             entities_after=_entity_count(db), candidate_pairs=0, pairs_by_strategy={}, bands={},
                             groups=len(collapsed), merged_entities=merged, collapsed_entities=merged,
                             collapse_left=left, oversized_components=0, seconds=seconds)
        db.write("run_finish", run_id=run_id, stats=stats.model_dump_json())
        return stats, sorted({g.canonical for g in collapsed})
    needs_embeddings = cfg.strategy in ("cosine", "deg-rag") or (
        cfg.strategy == "default" and cfg.embed.enabled)
    if needs_embeddings:
        timed("embed", lambda: embed(db, cfg.embed, fastrp_dimensions=fastrp_dimensions))
    pairs, by_strategy, bands, oversized, links = 0, {}, {}, 0, 0
    if cfg.strategy == "default":
        block_cfg = cfg.block if cfg.embed.enabled else cfg.block.model_copy(update={"strategies": tuple(
            s for s in cfg.block.strategies if s not in ("semantic", "kmeans"))})
        b = timed("block", lambda: block(db, run_id, block_cfg, focus=focus))
        ambiguity = load_ambiguity(db)  # one holder table for scoring and clustering alike
        s = timed("score", lambda: score(db, run_id, cfg.score, ambiguity=ambiguity))
        pairs, by_strategy, bands = b.pairs, b.pairs_by_strategy, s.bands
        groups, oversized = timed("cluster", lambda: cluster(db, run_id, cfg, ambiguity))
    elif cfg.strategy in ("exact", "exact-name"):
        exact = cfg.strategy == "exact"
        rule = "same upper-cased name and type" if exact else "same name"
        groups = timed("cluster", lambda: baselines.name_groups(db, fold_case=exact, by_type=exact, rule=rule))
    elif cfg.strategy == "cosine":
        links = timed("link", lambda: baselines.cosine_links(db, run_id, cfg.block.k, cfg.baseline.cosine_threshold))
        groups = []
    else:  # deg-rag
        groups, pairs = timed("cluster", lambda: baselines.deg_rag_groups(
            db, run_id, cfg.block.k, cfg.baseline.deg_rag_target, cfg.block.kmeans_seed))
        by_strategy = {"kmeans": pairs}
    merged = 0
    if cfg.mode == "synonym" and cfg.strategy == "default":
        timed("link", lambda: _link(db, groups, run_id, who))
        links = sum(len(g.members) - 1 for g in groups)
    else:
        method = "rules" if cfg.strategy == "default" else cfg.strategy
        merged += timed("merge", lambda: apply_groups(db, groups, run_id, method=method, decided_by=who))
    stats = ResolveStats(run_id=run_id, strategy=cfg.strategy, mode=cfg.mode, passes=1, entities_before=before,
                         entities_after=_entity_count(db), candidate_pairs=pairs, pairs_by_strategy=by_strategy,
                         bands=bands, groups=len(groups), merged_entities=merged, synonym_links=links,
                         oversized_components=oversized, seconds=seconds)
    db.write("run_finish", run_id=run_id, stats=stats.model_dump_json())
    return stats, sorted({g.canonical for g in groups})


def _collapse(db: Database, cfg: ResolveConfig, run_id: str, decided_by: str) -> tuple[list[Group], int]:
    """Merge identical-name copies (kgres.collapse); return their groups and the copies left unmerged."""
    groups, left = collapse(db, cfg.score, load_ambiguity(db), cfg.cluster.max_component, cfg.cluster.cohesion)
    apply_groups(db, groups, run_id, method="rules", decided_by=decided_by)
    if groups:
        db.replan()
    return groups, left


def _link(db: Database, groups: list[Group], run_id: str, decided_by: str) -> None:
    for start in range(0, len(groups), 500):
        db.write("same_as_groups", groups=payload(groups[start:start + 500]), run_id=run_id, method="rules",
                 decided_by=decided_by)


def _sum_dicts(ds) -> dict:
    out: dict = {}
    for d in ds:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out


def cluster(db: Database, run_id: str, cfg: ResolveConfig,
            ambiguity: Ambiguity | None = None) -> tuple[list[Group], int]:
    """Cohesive groups (size >= 2) inside each connected component of the run's auto pairs.

    A component larger than ``cluster.max_component`` (checking cohesion is quadratic in its size)
    is split by keeping only its stronger auto pairs, raising the bar until every piece fits; the
    number of components split that way is returned with the groups.
    """
    edges = [(r["a"], r["b"], r["score"]) for r in db.stream("cluster_auto_pairs", run_id=run_id)]
    pieces, oversized = [], 0
    for component in edge_components(edges):
        split = split_component(component, edges, cfg.score.auto_threshold, cfg.cluster.max_component)
        oversized += len(split) > 1
        pieces += [p for p in split if len(p) > 1]
    ambiguity = ambiguity if ambiguity is not None else load_ambiguity(db)
    groups: list[Group] = []
    for batch in batches(pieces, CLUSTER_BATCH_IDS):  # three queries per batch, not per component
        ids = [i for p in batch for i in p]
        rows = {r["e"]["id"]: r["e"] for r in db.query("cluster_members", pieces=batch)}
        forbidden = {(r["a"], r["b"]) for r in db.query("cluster_not_same_as", ids=ids)}
        related = {(r["a"], r["b"]): r["predicates"] for r in db.query("cluster_relations", ids=ids)}
        for piece in batch:
            groups += _component_groups({i: rows[i] for i in piece if i in rows}, forbidden, related, cfg, ambiguity)
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


def _component_groups(rows: dict[str, dict], forbidden: set[tuple[str, str]],
                      related: dict[tuple[str, str], list[str]], cfg: ResolveConfig,
                      ambiguity: Ambiguity) -> list[Group]:
    sides = {i: Side.from_row(r) for i, r in rows.items()}
    cache: dict[tuple[str, str], PairScore] = {}

    def raw(x: str, y: str) -> PairScore:
        key = (x, y) if x < y else (y, x)
        if key not in cache:
            cache[key] = compare(sides[key[0]], sides[key[1]], cfg.score, not_same_as=key in forbidden,
                                 predicates_between=related.get(key, ()), ambiguity=ambiguity)
        return cache[key]

    mentions = {i: r.get("mention_count") or 1 for i, r in rows.items()}
    names = {i: r.get("name") or "" for i, r in rows.items()}
    return groups_of(sides, raw, mentions, names, cfg.score.auto_threshold, cfg.cluster.cohesion)


def groups_of(sides: dict[str, Side], pair: Callable[[str, str], PairScore], mentions: dict[str, int],
              names: dict[str, str], auto: float, cohesion: float) -> list[Group]:
    """Cohesive groups of one component, given how any two of its members compare (``pair``, which
    knows the graph's ambiguous short forms: see :mod:`kgres.ambiguity`)."""
    cores = {i: s.core for i, s in sides.items()}
    parts = cohesive_groups(list(sides), pair, mentions, auto, cohesion)
    return [describe(p, pair, mentions, names, cores) for p in parts if len(p) > 1]


def _entity_count(db: Database) -> int:
    return db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]

