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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kgres import runs
from kgres.db import Database
from kgres.db.database import MERGE_REPLAN_SHARE, REPLAN_SHARE
from kgres.encoders import encoder_precision, preload_encoder
from kgres.errors import ConfigError, KgresError
from kgres.ingest.rollback import refuse_unfinished
from kgres.progress import Progress, as_progress, prefixed
from kgres.resolve import baselines
from kgres.resolve.baselines import BaselineConfig
from kgres.resolve.block import BlockConfig, LexicalWords, VectorCache, block, fill_mention_values, propose
from kgres.resolve.cluster import UNKNOWN_NAMES, ClusterConfig, Group, cluster, cluster_rows, clustering_reads
from kgres.resolve.collapse import collapse
from kgres.resolve.embed import Ahead, EmbedConfig, embed, encode_ahead, reindex, topology
from kgres.resolve.heap import long_lived, settle
from kgres.resolve.merge import apply_groups, finish_decisions, link_groups, refresh, resume_plan, rollback
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.normalize import keys_version, normalize
from kgres.resolve.redecide import redecide
from kgres.resolve.score import ScoreConfig, load_ambiguity, score
from kgres.resolve.score.memo import PairMemo
from kgres.resolve.score.model import MatchModel
from kgres.resolve.score.stage import Sides, score_pairs
from kgres.resolve.score.store import fits
from kgres.resolve.score.training import ModelConfig

Step = Progress | Callable[[str], None]  # a plain callable gets the notes and stage names
ResolveStrategy = Literal["default", "rules", "exact", "exact-name", "cosine", "deg-rag"]
ENGINES = ("default", "rules")  # kgres's own: collapse, passes, blocking, scoring, clustering
ResolveMode = Literal["merge", "synonym", "merge+synonym"]
STRATEGIES: tuple[str, ...] = ResolveStrategy.__args__  # type: ignore[attr-defined]
MODES: tuple[str, ...] = ResolveMode.__args__  # type: ignore[attr-defined]
# A resolve whose merges deleted vectors numbering at least this share of the entities left ends by
# rebuilding the entity vector index (kgres.resolve.embed.reindex): the deleted vectors doubled
# retrieval's vector search at 100k mentions. Entities a collapse retires before they were ever
# embedded (the copies of a first resolve, most new mentions of an increment) delete nothing. A small
# run leaves it to Lucene's own segment merges, which reclaim deletes, and keeps vector search up (it
# fails while the index is rebuilt).
REINDEX_SHARE = 0.1
# A focused pass re-embeds around its focus (kgres.resolve.embed.context_around) up to this share of
# the entities, and recomputes the whole graph's structural embeddings above it.
AROUND_SHARE = 0.05
# Name levels that say nothing about identity (kgres.resolve.cluster.UNKNOWN_NAMES, as stored)
UNKNOWN_RULES = sorted(n for n in UNKNOWN_NAMES if n is not None)


class ResolveConfig(BaseModel):
    """Everything one resolution run uses; stored on its ResolutionRun node."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    strategy: ResolveStrategy = "default"
    mode: ResolveMode = "merge"
    strip_legal_suffixes: bool = False
    # passes run until one merges nothing (a fixed point: a second resolve finds nothing more); later
    # passes see merged neighbours (context for "Holmes"); this caps them (a resolve stopped by the cap
    # says so: ResolveStats.converged)
    max_passes: int = Field(10, ge=1, le=100)
    collapse: bool = True  # merge identical-name copies before blocking (kgres.collapse); not in synonym mode
    embed: EmbedConfig = EmbedConfig()
    block: BlockConfig = BlockConfig()
    score: ScoreConfig = ScoreConfig()  # the rule scorer's thresholds (--strategy rules)
    model: ModelConfig = ModelConfig()  # the match model (the default strategy)
    cluster: ClusterConfig = ClusterConfig()
    baseline: BaselineConfig = BaselineConfig()

    def blocking(self) -> BlockConfig:
        """``block`` less the strategies that need embeddings when ``embed`` is off."""
        if self.embed.enabled:
            return self.block
        return self.block.model_copy(update={"strategies": tuple(
            s for s in self.block.strategies if s not in ("semantic", "kmeans"))})


class ResolveStats(BaseModel):
    run_id: str
    strategy: str = "default"
    mode: str = "merge"
    resumed: bool = False
    incremental: bool = False  # only the entities of mentions imported since the last resolve were resolved
    new_entities: int | None = None  # how many those were (incremental runs)
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
    redecided: int = 0  # entities an increment took back from a short form's holder to score again (redecide)
    synonym_links: int = 0
    oversized_components: int
    seconds: dict[str, float]
    model_id: str | None = None  # the match model the scored passes used
    model_trained: bool = False
    auto_threshold: float | None = None  # the probability the auto band started at (first scored pass)
    expected_precision: float | None = None  # the model's own estimate for its auto band
    expected_recall: float | None = None
    refused: dict[str, int] = {}  # auto pairs clustering did not join, by reason
    pairs_reused: int = 0  # candidate pairs whose comparisons an earlier pass of the resolve had made (PairMemo)
    pairs_unwritten: int = 0  # ... and whose CANDIDATE edge an earlier pass wrote as it is (not written again)
    # False: the passes stopped at max_passes while the last one still merged (or had not yet looked at
    # every entity again): a later resolve on the unchanged graph merges more, from where this one stopped
    converged: bool = True
    last_pass_merged: int = 0  # entities the last pass merged
    # how entity texts were encoded: "float32" or "bfloat16" (a local model), "endpoint"; None without
    # embeddings, or where no pass looked at any (an increment with nothing new loads no model)
    embed_precision: str | None = None


def resolve(db: Database, cfg: ResolveConfig = ResolveConfig(), on_step: Step = lambda m: None,
            run_id: str | None = None, fastrp_dimensions: int = 128, new: bool | None = None,
            after_import: bool = False) -> ResolveStats:
    """Run the chain in passes until one over every entity merges nothing (at most ``max_passes``).

    Each pass is its own ResolutionRun (``<run_id>``, ``<run_id>.2``, ...; later ones carry
    ``parent``), because a pass re-scores pairs on the graph the previous pass merged: an ambiguous
    "Holmes" parked in pass 1 can be placed in pass 2, once "Watson" and "Dr. Watson" are one
    neighbour. ``kgres rollback <run_id>`` undoes all passes.

    ``new``: True resolves only the entities of mentions imported since the last finished resolve
    (:func:`incremental_scope`), against the whole graph, with that resolve's model; False resolves
    every entity; None (the default) chooses incremental when a resolved graph exists and only
    imports came since.

    ``after_import``: the caller has just imported what it asks to resolve (``kgres ingest --resolve``,
    ``POST /mentions``). Where that import brought no new entity (a batch sent again, only triples)
    and nothing else happened since the last resolve, the automatic choice is an incremental run with
    nothing new in it, which changes nothing, not a run over every entity (100k mentions: 142 s, for
    a client's retry).

    If an earlier ``resolve`` was interrupted (a run still 'running'), that run is finished first,
    with its own stored config, and its stats are returned (``resumed`` is true).

    A run on a graph that nothing has changed since the last resolve (no import, decision, split or
    training since; see ``resolve_model_settled``) reuses that resolve's match model, so it scores
    what the last one scored the same way and merges nothing new (``train = "always"`` retrains).

    Raises:
        KgresError: ``new=True`` but there is no finished resolve to add to, or the strategy or mode
            cannot run incrementally; or an import did not finish (the graph holds part of an input).
    """
    with long_lived():  # kgres.resolve.heap: full garbage collections skip what the passes keep
        return _resolve(db, cfg, as_progress(on_step), run_id, fastrp_dimensions, new, after_import)


def _resolve(db: Database, cfg: ResolveConfig, on_step: Progress, run_id: str | None, fastrp_dimensions: int,
             new: bool | None, after_import: bool = False) -> ResolveStats:
    refuse_unfinished(db)
    finish_decisions(db, list(STRATEGIES))  # an accept killed mid-merge: finish it as decided
    unfinished = db.read("run_unfinished", strategies=list(STRATEGIES))
    if unfinished:
        run = unfinished[0]
        with _undone_on_config_error(db, run["parent"] or run["id"]):
            return _resume(db, run, on_step, fastrp_dimensions)
    base = run_id or runs.new_id()
    with _undone_on_config_error(db, base):
        return _start(db, cfg, base, on_step, fastrp_dimensions, new, after_import)


@contextmanager
def _undone_on_config_error(db: Database, base: str) -> Iterator[None]:
    """Undo the passes of resolve ``base`` when one stops on its configuration (``[resolve.model]
    train = "never"`` and no pinned model fits the graph): resumed with the same stored configuration
    it would stop again, on every later ``kgres resolve``. The graph is left as it was before it."""
    try:
        yield
    except ConfigError as e:
        if not db.read("run_get", run_id=base):
            raise
        rollback(db, base)
        raise ConfigError(f"{e} (resolve {base} was undone: the graph is as it was before it)") from e


def _start(db: Database, cfg: ResolveConfig, base: str, on_step: Progress, fastrp_dimensions: int,
           new: bool | None, after_import: bool = False) -> ResolveStats:
    increment = incremental_scope(db, cfg, new, after_import)
    if increment is not None:
        ids, model, rekey = increment
        on_step(f"incremental: {len(ids):,} new entities against the resolved graph")
        stats = _passes(db, cfg, base, first=1, focus=ids, on_step=on_step, fastrp_dimensions=fastrp_dimensions,
                        model=model, incremental=True, rekey=rekey)
        return stats.model_copy(update={"incremental": True, "new_entities": len(ids)})
    settled = None
    if cfg.strategy == "default" and cfg.model.train == "auto":
        rows = db.read("resolve_model_settled", strategy=cfg.strategy)
        settled = _readable(rows[0]["model_json"]) if rows else None
        if settled is not None:
            on_step(f"nothing new since the last resolve: scoring with its model {settled.id}")
    return _passes(db, cfg, base, first=1, focus=None, on_step=on_step, fastrp_dimensions=fastrp_dimensions,
                   model=settled)


# An automatic choice resolves incrementally while the new entities are at most this share of the
# graph; beyond it a whole run costs about the same and retrains the model on the larger graph.
INCREMENTAL_SHARE = 0.5
# ... and while the graph has grown less than this factor since its match model was trained: the
# model's frequencies describe the graph it was trained on. Whole runs at each doubling keep the
# total cost of a growing graph linear, and increments close to a whole run's result (3k generated
# mentions in ten increments: 0.885 of the one-run merged pairs with the first increments' model).
RETRAIN_GROWTH = 2.0


def incremental_scope(db: Database, cfg: ResolveConfig, new: bool | None,
                      after_import: bool = False) -> tuple[list[str], MatchModel | None, bool] | None:
    """Whether to resolve incrementally: the new entities, the model to score them with and whether
    the graph's name keys need normalizing first (the last resolve left them under another version:
    an upgrade, or ``strip_legal_suffixes`` changed), or None for a whole run. See :func:`resolve`
    for ``new`` and ``after_import``.

    Raises:
        KgresError: ``new=True`` and it cannot be done (nothing resolved yet, a baseline strategy,
            synonym mode).
    """
    if new is False:
        return None
    if cfg.strategy not in ENGINES or cfg.mode != "merge":
        if new:
            raise KgresError(f"--new resolves with kgres's own engine in merge mode, not strategy "
                             f"'{cfg.strategy}' in mode '{cfg.mode}'")
        return None
    rows = db.read("resolve_last_run", strategies=[cfg.strategy])
    if not rows:
        if new:
            raise KgresError(f"--new adds to a resolved graph, and no '{cfg.strategy}' resolve has finished "
                             "here: run 'kgres resolve' first")
        return None
    last = rows[0]
    ids = [r["id"] for r in db.read("resolve_new_entities", _plain=True, since=last["started_at"])]
    model = _last_model(db, cfg.strategy, last)
    unread = cfg.strategy == "default" and bool(last["model_json"]) and model is None  # stored by another kgres
    if new is None and (last["changed_since"] or (not ids and not after_import)
                        or len(ids) > INCREMENTAL_SHARE * db.count("Entity") or _outgrown(db, last) or unread):
        return None
    return ids, model, last["keys"] != keys_version(cfg.strip_legal_suffixes)


def _outgrown(db: Database, last: dict) -> bool:
    """The graph has grown :data:`RETRAIN_GROWTH` times since the last resolve's model was trained
    here (a pinned or imported model never is)."""
    trained = last["trained_mentions"]
    return bool(last["model_json"]) and not last["pinned"] and bool(trained) and \
        db.count("Mention") >= RETRAIN_GROWTH * trained


def _last_model(db: Database, strategy: str, last: dict | None = None) -> MatchModel | None:
    """The match model of the last finished resolve (``resolve_last_run``), None for the rules engine
    and for a model this kgres does not read (:func:`_readable`)."""
    if strategy != "default":
        return None
    if last is None:
        rows = db.read("resolve_last_run", strategies=[strategy])
        last = rows[0] if rows else None
    return _readable(last["model_json"]) if last else None


def _readable(model_json: str | None) -> MatchModel | None:
    """The stored model, or None when there is none or this kgres does not read its levels as they
    were stored (:func:`~kgres.resolve.score.store.fits`: an upgrade added a level): such a model is
    never reused, a new one is trained."""
    model = MatchModel.from_json(model_json) if model_json else None
    return model if model is not None and fits(model) else None


def _resume(db: Database, run: dict, on_step: Progress, fastrp_dimensions: int) -> ResolveStats:
    """Finish an interrupted run: refresh what it merged, then redo its pass (every stage is idempotent)."""
    cfg = ResolveConfig.model_validate_json(run["config"])
    base = run["parent"] or run["id"]
    first = int(run["id"].rsplit(".", 1)[1]) if run["parent"] else 1
    incremental = bool(run["incremental"])
    on_step(f"resuming {run['id']}")
    canonicals = [r["id"] for r in db.read("run_canonicals", run_id=run["id"])]
    for start in range(0, len(canonicals), 500):
        refresh(db, canonicals[start:start + 500])  # a merge batch may have committed without its refresh
    model = None
    if incremental and cfg.strategy == "default":  # the model the increment scores with
        model = _model_of(db, base, first) or _last_model(db, cfg.strategy)
    stats = _passes(db, cfg, base, first=first, focus=run["focus"], on_step=on_step,
                    fastrp_dimensions=fastrp_dimensions, model=model, incremental=incremental, rekey=incremental,
                    carried=[(a, b) for a, b in run["carried"]])
    return stats.model_copy(update={"resumed": True, "incremental": incremental})


def _passes(db: Database, cfg: ResolveConfig, base: str, first: int, focus: list[str] | None, on_step: Progress,
            fastrp_dimensions: int, model: MatchModel | None = None, incremental: bool = False,
            rekey: bool = False, carried: list[tuple[str, str]] | None = None) -> ResolveStats:
    """The passes of one resolve from pass ``first``: a collapse run, then scored passes, each
    focused on what the previous one merged (and, in a whole resolve, on those entities'
    neighbours), until one merges nothing; a whole resolve ends with one pass over every entity, an
    incremental one (``focus`` = the new entities) does not. ``rekey``: an incremental resolve
    normalizes every entity whose keys are stale, not only the new ones. ``carried``: the pairs pass
    ``first`` scores besides its focus's (a resumed focused pass)."""
    if focus is None or focus:  # an increment with nothing new encodes nothing: no model to load
        preload(cfg)  # the model loads while normalize and collapse wait on Neo4j
    before = db.count("Entity")
    passes: list[ResolveStats] = []
    max_passes = cfg.max_passes if cfg.strategy in ENGINES and cfg.mode != "synonym" else 1
    # Collapse is a run of its own (the first), so that no mention moves twice within one run: a
    # copy collapsed into "Sherlock Holmes" may move on with it to "Mr. Sherlock Holmes", and each
    # move must be undoable by its own run.
    collapse_run = cfg.strategy in ENGINES and cfg.collapse and cfg.mode != "synonym"
    # The texts the first scored pass embeds are encoded while the passes before it wait on Neo4j,
    # once their entities are keyed, beside the collapse, so that of the copies of a name only the one
    # the collapse keeps is encoded: an increment's once its new entities are keyed, and none of a name
    # the graph had (100 new generated mentions: some 20 texts, not 100); a whole resolve's once pass 1
    # has keyed every entity (100k generated mentions: 7.3k texts, not 18.0k).
    wants_ahead = first == 1 and collapse_run and _needs_embeddings(cfg)
    ahead = None
    started: list[Ahead | None] = []
    on_keyed = (lambda: started.append(encode_ahead(db, cfg.embed))) if wants_ahead and not incremental else None
    # Every scored pass weighs evidence with one model: the first trains it (or picks a pinned one),
    # later ones, which see merged neighbours, reuse it. A resumed later pass finds it on the run.
    if model is None and cfg.strategy == "default" and first > 1 + collapse_run:
        model = _model_of(db, base, first)
    # The short-form holder table reads every multi-word name of the graph: a whole resolve reads it
    # again each pass (merges change it); an incremental one reads only the keys it asks about, each
    # when first asked, through the passes (holders are grouped by name core, which a collapse of
    # copies leaves as it was), with the increment's names keyed first (unkeyed, a new "Jane Smith"
    # was no holder of "J. Smith"). At 100k mentions the whole table took 0.2-0.45 s a read.
    holders, keyed = None, 0.0
    if cfg.strategy in ENGINES and (focus is None or rekey):
        # mentions imported before kgres wrote their blocking values get them (an increment reads them
        # from an index; a graph resolved whole since, or re-keyed by an increment, has them all)
        t = time.perf_counter()
        fill_mention_values(db)
        keyed = time.perf_counter() - t
    if incremental and cfg.strategy in ENGINES:
        t = time.perf_counter()
        normalize(db, strip_legal=cfg.strip_legal_suffixes, ids=None if rekey else focus)
        keyed += time.perf_counter() - t
        ahead = encode_ahead(db, cfg.embed, ids=focus) if wants_ahead else None
        holders = load_ambiguity(db, lazy=True)
    vectors, words = VectorCache(), LexicalWords()
    memo = PairMemo()  # the pairs the passes compared, reused where nothing they read has changed
    sides = Sides(structural=False)  # the entities the passes' pairs read, kept until a merge changes them
    replan = not incremental
    # a baseline or synonym mode runs one pass by design: nothing to converge
    converged = not (cfg.strategy in ENGINES and cfg.mode != "synonym")
    last = max(first, max_passes + collapse_run)
    for n in range(first, last + 1):
        pass_id = _pass_id(base, n)
        only_collapse = collapse_run and n == 1
        whole = focus is None
        scope = focus
        stats, (focus, moved), model = _one_pass(
            db, cfg, pass_id, parent=None if n == 1 else base, focus=focus, replan=replan,
            on_step=prefixed(on_step, f"pass {n}: "), fastrp_dimensions=fastrp_dimensions,
            only_collapse=only_collapse, model=model, incremental=incremental, ambiguity=holders, vectors=vectors,
            words=words, memo=memo, sides=sides, carried=carried, ahead=None if only_collapse else ahead,
            on_keyed=on_keyed if only_collapse else None)
        carried = None
        ahead = started.pop() if started else ahead
        # after the last pass the cap allows (a baseline's only one) nothing reads the next pass's
        # focus or the sides its merges changed
        more = n < last
        if stats.merged_entities and len(sides) and more:
            sides.forget(_changed(db, focus, moved))
        ahead = ahead if only_collapse else None
        passes.append(stats)
        # The planner's statistics are brought up to date at the start of a whole resolve (the graph may
        # have just been loaded) and after a pass that merged in bulk (a collapse does it itself), not
        # before every pass: a replan drops every cached plan, and planning some forty queries again
        # cost each pass re-examining a few entities 0.1-0.4 s of about 1.1-1.4 s (cesi-ambiguous).
        replan = (not incremental and not only_collapse
                  and stats.merged_entities >= REPLAN_SHARE * max(stats.entities_before, 1))
        memo.forget(set(moved) - set(focus))
        if only_collapse:
            # the first scored pass looks at every entity, or (incremental) at the new ones the
            # collapse left standing and at those redecide revived: a new copy of a name the graph had
            # is now that entity, whose candidates were scored when it was resolved
            focus = _standing(db, pass_id, scope, focus, moved) if incremental else None
            if stats.redecided:  # their holders no longer count their mentions
                holders = load_ambiguity(db, lazy=True)
        elif stats.merged_entities == 0:
            if whole or incremental:
                converged = True
                break
            # The passes focused on what the last one merged have settled; one pass over every entity
            # confirms it (a merge also changes the context of its neighbours' other candidates), so
            # that a second resolve on an unchanged graph finds nothing.
            focus = None
        elif not incremental and more:
            # A merge changes the context (shared neighbours, neighbour embeddings) of the neighbours
            # the merged-away entities brought: looked at in the focused passes, the pairs that context
            # now joins no longer wait for a pass over every entity (20k generated: 3 such passes, not 5).
            # The merged entities' name-alike candidates (partners) are paired again with what those
            # became, as they are. Blocking each partner again (15 per merged entity at 100k generated
            # mentions) made every focused pass nearly a whole one: 1.41M pairs in 473 s, against 0.72M
            # in 305 s this way. The pairs a partner's freed nearest-name slot would have brought are
            # left to the pass over every entity, or where the pass cap comes first (there) to the next
            # resolve: pairwise F1 0.907 -> 0.904 there; every development set unchanged.
            partners = db.read("resolve_focus_partner_pairs", _plain=True, ids=moved, unknown=UNKNOWN_RULES,
                               run_ids=[_pass_id(base, i) for i in range(1, n + 1)])
            focus = [r["id"] for r in db.read("resolve_focus_neighbours", _plain=True, ids=focus, run_id=pass_id)]
            carried = sorted({(min(p, r["entity"]), max(p, r["entity"])) for r in partners for p in r["partners"]})
    if cfg.strategy in ENGINES and cfg.mode == "merge+synonym":
        last = passes[-1].run_id
        linked = db.query("resolve_merge_same_as_review", run_id=last, decided_by="kgres resolve")[0]["linked"]
        passes[-1] = passes[-1].model_copy(update={"synonym_links": passes[-1].synonym_links + linked})
    seconds = _sum_dicts(p.seconds for p in passes)
    if _topology_last(cfg, incremental, passes):
        on_step.stage("topology")
        t = time.perf_counter()
        topology(db, fastrp_dimensions, cfg.embed.fastrp_seed)
        seconds["embed"] = seconds.get("embed", 0.0) + time.perf_counter() - t
        on_step.end()
    if keyed:
        seconds["normalize"] = seconds.get("normalize", 0.0) + keyed
    merged = sum(p.merged_entities for p in passes)
    # every pass of this resolve, those an interrupted process ran before this one resumed it too
    deleted = _unindexed(db, [_pass_id(base, i) for i in range(1, first + len(passes))])
    after = db.count("Entity")
    if deleted and deleted >= REINDEX_SHARE * after:
        on_step.stage("reindex")
        t = time.perf_counter()
        reindex(db)
        seconds["reindex"] = time.perf_counter() - t
        on_step.end()
    return ResolveStats(
        run_id=base, strategy=cfg.strategy, mode=cfg.mode, passes=len(passes), entities_before=before,
        entities_after=after, candidate_pairs=sum(p.candidate_pairs for p in passes),
        pairs_by_strategy=_sum_dicts(p.pairs_by_strategy for p in passes),
        bands=_sum_dicts(p.bands for p in passes), groups=sum(p.groups for p in passes),
        merged_entities=merged,
        collapsed_entities=sum(p.collapsed_entities for p in passes),
        collapse_left=sum(p.collapse_left for p in passes), redecided=sum(p.redecided for p in passes),
        synonym_links=sum(p.synonym_links for p in passes),
        oversized_components=max(p.oversized_components for p in passes),
        seconds={k: round(v, 3) for k, v in seconds.items()},
        model_id=next((p.model_id for p in passes if p.model_id), None),
        model_trained=any(p.model_trained for p in passes),
        auto_threshold=next((p.auto_threshold for p in passes if p.auto_threshold is not None), None),
        expected_precision=next((p.expected_precision for p in passes if p.expected_precision is not None), None),
        expected_recall=next((p.expected_recall for p in passes if p.expected_recall is not None), None),
        refused=_sum_dicts(p.refused for p in passes), pairs_reused=sum(p.pairs_reused for p in passes),
        pairs_unwritten=sum(p.pairs_unwritten for p in passes), converged=converged,
        last_pass_merged=passes[-1].merged_entities,
        embed_precision=encoder_precision(cfg.embed) if any("embed" in p.seconds for p in passes) else None)


def _topology_last(cfg: ResolveConfig, incremental: bool, passes: list[ResolveStats]) -> bool:
    """Whether a resolve writes the topology-only FastRP once, after its passes: the match model never
    reads it, so its whole passes write only the context embeddings (20k generated mentions: five
    recomputes, 3.2 s, for a vector no pass read). An increment leaves it as the last whole resolve
    wrote it, as before; the rule scorer weighs it, so its passes write it as they go."""
    return (cfg.strategy == "default" and not incremental and cfg.embed.fastrp and _needs_embeddings(cfg)
            and any("embed" in p.seconds for p in passes))


def _standing(db: Database, run_id: str, new: list[str], canonicals: list[str], moved: list[str]) -> list[str]:
    """The entities an increment's first scored pass looks at after its collapse run ``run_id``: those
    of ``new`` it did not merge away (``moved`` less ``canonicals``), and the ones it revived."""
    retired = set(moved) - set(canonicals)
    revived = {r["id"] for r in db.read("resolve_redecide_revived", _plain=True, run_id=run_id)}
    return sorted((set(new) - retired) | revived)


def _changed(db: Database, canonicals: list[str], moved: list[str]) -> set[str]:
    """The entities whose score sides a pass's merges changed: every entity of its groups (the
    canonicals gained mentions, names and edges; the others are gone) and the canonicals' neighbours
    (their edges now lead to the canonical; their context embeddings sum its neighbours' texts)."""
    return set(moved) | {r["id"] for r in db.read("resolve_embed_neighbours", _plain=True, ids=canonicals)}


def _unindexed(db: Database, run_ids: list[str]) -> int:
    """How many vectors the merges of ``run_ids`` deleted from the entity vector index."""
    return db.read("resolve_unindexed", run_ids=run_ids)[0]["n"]


def _pass_id(base: str, n: int) -> str:
    """The run id of pass ``n`` of the resolve ``base``: ``base``, then ``base.2``, ``base.3`` ..."""
    return base if n == 1 else f"{base}.{n}"


def _model_of(db: Database, base: str, first: int) -> MatchModel | None:
    """The model an interrupted resolve's earlier scored passes used (resumed later passes reuse it)."""
    for n in range(1, first):
        rows = db.read("resolve_model_of_run", run_id=_pass_id(base, n))
        if rows:
            return _readable(rows[0]["model_json"])
    return None


def _one_pass(db: Database, cfg: ResolveConfig, run_id: str, parent: str | None, focus: list[str] | None,
              on_step: Progress, fastrp_dimensions: int, only_collapse: bool = False, replan: bool = False,
              model: MatchModel | None = None, incremental: bool = False,
              ambiguity: Ambiguity | None = None,
              vectors: VectorCache | None = None, memo: PairMemo | None = None, words: LexicalWords | None = None,
              sides: Sides | None = None, carried: list[tuple[str, str]] | None = None, ahead: Ahead | None = None,
              on_keyed: Callable[[], None] | None = None
              ) -> tuple[ResolveStats, tuple[list[str], list[str]], MatchModel | None]:
    """One pass of the configured strategy, or (``only_collapse``) the run that merges identical-name
    copies; returns its stats, the canonical ids it merged into with every id of its groups
    (canonicals and the entities merged into them), and the match model it used.
    ``incremental``: keys, embeddings and identical-name copies are looked at for ``focus`` only.
    ``ambiguity``: the short-form holder table to use (default: read now). ``vectors``: the
    embeddings the passes share for semantic blocking (:class:`VectorCache`), ``words`` the graph's
    words for lexical blocking (:class:`LexicalWords`). ``memo``: the pairs earlier passes compared
    (:class:`PairMemo`); ``sides``: the entities' score sides they read (:class:`Sides`).
    ``carried``: pairs scored besides the focus's (:func:`~kgres.resolve.block.propose`).
    ``ahead``: entity texts encoded while earlier work ran (:func:`~kgres.resolve.embed.encode_ahead`);
    ``on_keyed``: called once this pass has written every entity's keys (a collapse run's normalize).
    ``replan``: bring the planner's statistics up to date first (:meth:`~kgres.db.Database.replan`)."""
    runs.start(db, run_id, cfg.model_dump_json(), cfg.strategy, parent=parent, focus=focus, incremental=incremental,
               keys=keys_version(cfg.strip_legal_suffixes), carried=carried)
    carried = carried or []
    before = db.count("Entity")
    seconds: dict[str, float] = {}
    if (planned := resume_plan(db, run_id)) is not None:  # interrupted while merging: finish as decided
        stats = ResolveStats(run_id=run_id, strategy=cfg.strategy, mode=cfg.mode, passes=1, entities_before=before,
                             entities_after=db.count("Entity"), candidate_pairs=0, pairs_by_strategy={}, bands={},
                             groups=planned.groups, merged_entities=planned.retired,
                             collapsed_entities=planned.retired if only_collapse else 0, oversized_components=0,
                             seconds=seconds)
        runs.finish(db, run_id, stats.model_dump_json())
        return stats, (planned.canonicals, planned.merged), model

    def timed(name: str, fn, total: int | None = None, unit: str = "entities"):
        on_step.stage(name)
        settle()  # what the stages and passes before keep, the model once loaded (kgres.resolve.heap)
        on_step.expect(total, unit)
        t = time.perf_counter()
        out = fn()
        seconds[name] = round(time.perf_counter() - t, 3)
        on_step.end()
        return out

    if replan:
        db.replan()  # the graph may have just been loaded or merged in bulk
    if not (incremental and only_collapse):  # an increment's own entities were keyed before its holder table
        timed("normalize", lambda: normalize(db, strip_legal=cfg.strip_legal_suffixes, on_batch=on_step.advance,
                                             ids=focus if incremental else None),
              total=None)  # how many keys are stale is known as they are read
    if on_keyed is not None:
        on_keyed()
    who = "kgres resolve" if cfg.strategy in ENGINES else baselines.DECIDED_BY.format(cfg.strategy)
    if only_collapse:
        revived: list[str] = []
        if incremental and ambiguity is not None:
            revived = timed("redecide", lambda: redecide(db, run_id, focus, ambiguity, who))
        collapsed, left = timed("collapse", lambda: _collapse(db, cfg, run_id, who, focus if incremental else None,
                                                              ambiguity, on_step))
        merged = sum(len(g.members) - 1 for g in collapsed)
        stats = ResolveStats(run_id=run_id, strategy=cfg.strategy, mode=cfg.mode, passes=1, entities_before=before,
                             entities_after=db.count("Entity"), candidate_pairs=0, pairs_by_strategy={}, bands={},
                             groups=len(collapsed), merged_entities=merged, collapsed_entities=merged,
                             collapse_left=left, redecided=len(revived), oversized_components=0, seconds=seconds)
        runs.finish(db, run_id, stats.model_dump_json())
        canonicals, moved = _merged(collapsed)
        return stats, (sorted(set(canonicals) | set(revived)), sorted(set(moved) | set(revived))), model
    if _needs_embeddings(cfg) and (focus is None or focus):  # nothing to look at: no model to load
        # A small focused pass of the match model re-embeds only what the last merges changed (the
        # merged entities and their neighbours are the focus): the model never reads the topology
        # FastRP that a whole recompute would refresh. Around a large focus, the projections page
        # by page cost more than one over the graph (20k generated, 5.8k entities: a focus of about
        # 3k entities 10 s, the whole graph 3 s; 100 entities 1 s).
        around = incremental or (focus is not None and cfg.strategy == "default"
                                 and len(focus) <= AROUND_SHARE * before)
        timed("embed", lambda: embed(db, cfg.embed, fastrp_dimensions=fastrp_dimensions, on_batch=on_step.advance,
                                     ids=focus if around else None, ahead=ahead, topology=cfg.strategy != "default"),
              total=len(focus) if around and focus is not None else before)
    pairs, by_strategy, bands, oversized, links = 0, {}, {}, 0, 0
    scored = {}
    if cfg.strategy in ENGINES:
        block_cfg = cfg.blocking()
        ambiguity = ambiguity if ambiguity is not None else load_ambiguity(db)  # scoring's and clustering's
        if cfg.strategy == "rules":
            b = timed("block", lambda: block(db, run_id, block_cfg, focus=focus, incremental=incremental,
                                             vectors=vectors, carried=carried, words=words, on_batch=on_step.advance,
                                             on_total=lambda n: on_step.expect(n, "entity reads")))
            pairs, by_strategy = b.pairs, b.pairs_by_strategy
            bands = timed("score", lambda: score(db, run_id, cfg.score, ambiguity=ambiguity, on_batch=on_step.advance),
                          total=pairs, unit="pairs").bands
            groups, oversized = timed("cluster", lambda: cluster(db, run_id, cfg.score, cfg.cluster, ambiguity))
        else:
            # The pairs stay in Python from blocking to clustering; each is written once, scored
            # (20k generated mentions: reading them back to score, writing the scores and reading
            # them again to cluster took 92 s in Neo4j of a 381 s resolve).
            proposed = timed("block", lambda: propose(db, block_cfg, focus=focus, incremental=incremental,
                                                      vectors=vectors, carried=carried, words=words,
                                                      on_batch=on_step.advance,
                                                      on_total=lambda n: on_step.expect(n, "entity reads")))
            pairs, by_strategy = len(proposed), proposed.by_strategy()
            memo = memo if memo is not None else PairMemo()
            hits = memo.hits
            s, model, outcomes = timed("score", lambda: score_pairs(db, run_id, proposed, cfg.model, ambiguity,
                                                                    model=model, memo=memo, on_batch=on_step.advance,
                                                                    keep=clustering_reads, sides=sides),
                                       total=len(proposed), unit="pairs")
            bands = s.bands
            groups, c = timed("cluster", lambda: cluster_rows(db, outcomes, cfg.cluster))
            scored = {"model_id": s.model_id, "model_trained": s.trained, "auto_threshold": s.auto_threshold,
                      "expected_precision": s.expected_precision, "expected_recall": s.expected_recall,
                      "refused": c.refused, "pairs_reused": memo.hits - hits, "pairs_unwritten": s.unchanged}
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
    method = "model" if cfg.strategy == "default" else cfg.strategy
    if cfg.mode == "synonym" and cfg.strategy in ENGINES:
        links = timed("link", lambda: link_groups(db, groups, run_id, method=method, decided_by=who))
    else:
        merged += timed("merge", lambda: apply_groups(db, groups, run_id, method=method, decided_by=who,
                                                      on_batch=on_step.advance),
                        total=sum(len(g.members) - 1 for g in groups))
    stats = ResolveStats(run_id=run_id, strategy=cfg.strategy, mode=cfg.mode, passes=1, entities_before=before,
                         entities_after=db.count("Entity"), candidate_pairs=pairs, pairs_by_strategy=by_strategy,
                         bands=bands, groups=len(groups), merged_entities=merged, synonym_links=links,
                         oversized_components=oversized, seconds=seconds, **scored)
    runs.finish(db, run_id, stats.model_dump_json())
    return stats, _merged(groups), model


def _merged(groups: list[Group]) -> tuple[list[str], list[str]]:
    """The canonical ids of ``groups``, and every id in them."""
    return sorted({g.canonical for g in groups}), sorted({m for g in groups for m in (g.canonical, *g.members)})


def preload(cfg: ResolveConfig) -> None:
    """Begin loading, in the background, the local embedding model a resolve with ``cfg`` needs
    (nothing when it needs none), so that loading it overlaps work that waits on Neo4j; a failure is
    raised where the model is used."""
    if _needs_embeddings(cfg):
        preload_encoder(cfg.embed)


def _needs_embeddings(cfg: ResolveConfig) -> bool:
    return cfg.strategy in ("cosine", "deg-rag") or (cfg.strategy in ENGINES and cfg.embed.enabled)


def _collapse(db: Database, cfg: ResolveConfig, run_id: str, decided_by: str, focus: list[str] | None,
              ambiguity: Ambiguity | None, progress: Progress = Progress()) -> tuple[list[Group], int]:
    """Merge identical-name copies (kgres.collapse), of ``focus`` if given; return their groups and
    the copies left unmerged. ``progress`` counts the copies merged."""
    groups, left = collapse(db, cfg.score, ambiguity if ambiguity is not None else load_ambiguity(db),
                            cfg.cluster.max_component,
                            cfg.cluster.cohesion,
                            pairwise=cfg.strategy == "rules", focus=focus)
    retired = sum(len(g.members) - 1 for g in groups)
    progress.expect(retired, "entities")
    apply_groups(db, groups, run_id, method="rules", decided_by=decided_by, on_batch=progress.advance)
    if retired:  # of the entities there were
        db.replan_if_bulk(retired, db.count("Entity") + retired, share=MERGE_REPLAN_SHARE)
    return groups, left


def _sum_dicts(ds) -> dict:
    out: dict = {}
    for d in ds:
        for k, v in d.items():
            out[k] = out.get(k, 0) + v
    return out
