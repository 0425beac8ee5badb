"""``score``: every candidate pair of a run gets a score, a band and the evidence behind them.

Two scorers:

- :func:`score_model` (the default strategy): comparison levels for every pair
  (:mod:`~kgres.resolve.score.levels`), a match model trained on this graph or reused
  (:mod:`~kgres.resolve.score.model`), match probabilities, and bands from probability thresholds:
  ``auto`` where the model expects the band to be ``target_precision`` precise (never below
  ``auto_floor``), ``review`` from ``review_probability``, ``reject`` below. A pair a constraint
  forbids scores 0, band ``reject``, with the reason.
- :func:`score` (``--strategy rules``): the rule table of :mod:`~kgres.resolve.score.rules`.

A rejected pair's edge keeps its score, band, match weight, name rule and cannot-link reason, not
its ``signals_json`` (each level and weight): rejects are most of the pairs (96% at 100k generated
mentions, some 500 bytes of evidence each, encoded in Python and stored), and ``kgres explain
--pair`` computes a rejected pair's waterfall again with the model of the run that rejected it.

A resolve's pass of the model scores the pairs blocking left in memory (:func:`score_pairs`) and
writes each once, scored; :func:`score_model` and :func:`score` score the unscored CANDIDATE edges
of a run in place. Either way pairs go in pages of whole entities, each entity's side read once.
"""

from __future__ import annotations

import json
import math
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from pydantic import BaseModel

from kgres.db import Database
from kgres.db.overlap import Overlap
from kgres.db.vectors import unpacked
from kgres.errors import ConfigError
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.score import training
from kgres.resolve.score.constraints import conflict
from kgres.resolve.score.levels import (ACRONYM, BANDS, LEGAL_SUFFIX, NONE, NULL, OVERLAP_20, OVERLAP_80, SAME_KEY,
                                        TYPO, UNIFORM, Comparison, PairFrame, TokenWeights, comparisons, name_of_level,
                                        head_added, short_form_question, tf_values, titles_apart, vectors,
                                        words_replaced, words_swapped)
from kgres.resolve.score.memo import Compared, PairMemo
from kgres.resolve.score.model import Cells, MatchModel, auto_threshold, expected_quality, probability, train
from kgres.resolve.score.names import same_name_tokens, shares_code
from kgres.resolve.score.rules import ScoreConfig, compare
from kgres.resolve.score.sides import Semantic, Side
from kgres.resolve.score.store import comparisons_of, pinned_model, store
from kgres.resolve.score.training import ModelConfig

# The comparisons the constraints read (names, titles, numbers in names, types): a forbidden pair's
# levels of these say why it was forbidden, not what a non-match looks like.
CONSTRAINED = frozenset({"name", "short_form", "numbers", "type"})


class ScoreStats(BaseModel):
    run_id: str
    scored: int
    bands: dict[str, int]
    model_id: str | None = None  # the match model (default strategy)
    trained: bool = False  # this run trained it
    auto_threshold: float | None = None  # probability
    review_threshold: float | None = None
    expected_precision: float | None = None  # the model's own estimate for the auto band
    expected_recall: float | None = None
    unchanged: int = 0  # pairs not written: an earlier pass of the resolve wrote the same edge (PairMemo)


# -- the match model --------------------------------------------------------------------------------

@dataclass
class Candidates:
    """A run's candidate pairs as the model sees them: ids, comparison vectors, the values behind
    term-frequency-adjusted levels, cannot-link reasons and the cosines (for the evidence). Levels,
    flags, cosines and term-frequency cells are kept in arrays, a page at a time, not as Python
    objects per pair: a pass holds all its pairs until it has trained and predicted (5.9M in the
    first pass of 1M generated mentions)."""

    a: list[str] = field(default_factory=list)
    b: list[str] = field(default_factory=list)
    rel: list[str] = field(default_factory=list)  # the pair's CANDIDATE relationship (elementId)
    gamma: list[np.ndarray] = field(default_factory=list)  # a page's levels at a time
    tf: Cells = field(default_factory=Cells)
    conflict: list[str | None] = field(default_factory=list)
    # per page: names that share words, each with its own (words_swapped), or a compound and its
    # modifier (head_added); names that share a model code (shares_code); the ego and neighbour
    # cosines, NaN where a vector is missing
    swapped: list[np.ndarray] = field(default_factory=list)
    apart: list[np.ndarray] = field(default_factory=list)  # ... swapped, each replacing a word inside, no person
    coded: list[np.ndarray] = field(default_factory=list)
    ego: list[np.ndarray] = field(default_factory=list)
    neighbour: list[np.ndarray] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.a)

    def matrix(self, k: int) -> np.ndarray:
        return np.concatenate(self.gamma) if self.gamma else np.zeros((0, k), dtype=np.int8)

    def column(self, name: str) -> np.ndarray:
        """The pages of ``swapped``, ``apart``, ``coded``, ``ego`` or ``neighbour`` as one array."""
        pages = getattr(self, name)
        return np.concatenate(pages) if pages else \
            np.zeros(0, dtype=bool if name in ("swapped", "apart", "coded") else float)

    def add_page(self, page: list[dict[str, Any]], compared: list[Compared]) -> None:
        """The rows of a page (:func:`_complete`'s) and their comparison outcomes."""
        if not page:
            return
        offset = len(self.a)
        for i, (r, c) in enumerate(zip(page, compared)):
            for k, v in c.tf:
                self.tf.add(offset + i, k, v)
            self.a.append(r["a"])
            self.b.append(r["b"])
            self.rel.append(r.get("rel"))
            self.conflict.append(c.conflict)
        self.gamma.append(np.frombuffer(b"".join(c.gamma for c in compared), dtype=np.int8).reshape(len(page), -1))
        self.swapped.append(np.fromiter((c.swapped for c in compared), dtype=bool, count=len(page)))
        self.apart.append(np.fromiter((c.apart for c in compared), dtype=bool, count=len(page)))
        self.coded.append(np.fromiter((c.coded for c in compared), dtype=bool, count=len(page)))
        self.ego.append(_nan_for_none(r["ego"] for r in page))
        self.neighbour.append(_nan_for_none(r["neighbour"] for r in page))


def _nan_for_none(values: Iterable[float | None]) -> np.ndarray:
    return np.fromiter((math.nan if v is None else v for v in values), dtype=np.float64)


def _none_for_nan(values: np.ndarray) -> list[float | None]:
    """The Python floats of ``values``, None where NaN (a cosine whose vector is missing)."""
    return [None if v != v else v for v in values.tolist()]


def pages(db: Database, run_id: str, batch_size: int, structural: bool = True
          ) -> Iterator[tuple[list[dict[str, Any]], "Sides"]]:
    """The unscored candidate pairs of ``run_id`` with what comparing them needs, in pages of whole
    entities' pairs (about ``batch_size`` pairs a page), each with the Sides of its entities. The
    entities with unscored pairs and their pairs' ids come first from the run's edge index, so that a
    run of a few pairs (an incremental resolve) costs its pairs, not the graph.

    Each row: ``a``, ``b``, ``rel`` (the pair's relationship, ``resolve_score_page``) and what
    :func:`_complete` adds. ``structural``: read the entities' topology FastRP vectors for the
    ``structural`` cosine (the rule scorer weighs it; the match model does not, and leaves it None)."""
    sources = db.read("resolve_score_sources", _plain=True, run_id=run_id)
    raw = (db.read("resolve_score_page", _plain=True, run_id=run_id, rels=rels)
           for rels in _pages_of(sources, batch_size))
    yield from _completed((page for page in raw if page), db, structural)


def pair_pages(db: Database, pairs: Iterable[tuple[str, str]], batch_size: int, structural: bool = True,
               sides: "Sides | None" = None) -> Iterator[tuple[list[dict[str, Any]], "Sides"]]:
    """:func:`pages` for pairs held in memory (``a`` < ``b``, sorted): pages of whole entities'
    pairs, each row ``a``, ``b`` and what :func:`_complete` adds. Only the sides are read, and of
    those only the ones ``sides`` (kept from earlier stages, read as ``structural`` says) lacks."""
    yield from _completed(_pair_rows(pairs, batch_size), db, structural, sides)


def _pair_rows(pairs: Iterable[tuple[str, str]], batch_size: int) -> Iterator[list[dict[str, Any]]]:
    """``pairs`` (sorted) as rows ``a``, ``b``, in pages of whole entities of about ``batch_size``."""
    page: list[dict[str, Any]] = []
    for a, b in pairs:
        if len(page) >= batch_size and page[-1]["a"] != a:
            yield page
            page = []
        page.append({"a": a, "b": b})
    if page:
        yield page


def _completed(raw: Iterator[list[dict[str, Any]]], db: Database, structural: bool = True,
               cache: "Sides | None" = None) -> Iterator[tuple[list[dict[str, Any]], "Sides"]]:
    """Each page of ``raw`` completed by :func:`_complete`, with the sides of the entities it has
    not met before (nor ``cache`` holds) read from Neo4j while the caller compares the page before
    (kgres.db.overlap): the server reads while Python compares."""
    cache = cache if cache is not None else Sides(structural=structural)
    forbidden: set[tuple[str, str]] | None = None
    with Overlap("kgres-score-sides") as ahead:
        page = next(raw, None)
        if page is not None:
            forbidden = not_same_as(db)
            ahead.submit(Sides.read, db, cache.missing(_entities(page)), structural)
        while page is not None:
            done = _complete(page, cache, db, forbidden, ready=ahead.wait())
            page = next(raw, None)
            if page is not None:
                ahead.submit(Sides.read, db, cache.missing(_entities(page)), structural)
            yield done


def _entities(page: list[dict[str, Any]]) -> list[str]:
    return sorted({r["a"] for r in page} | {r["b"] for r in page})


def _complete(page: list[dict[str, Any]], cache: "Sides", db: Database, forbidden: set[tuple[str, str]],
              ready: list[dict[str, Any]] = ()) -> tuple[list[dict[str, Any]], "Sides"]:
    """Add to each row of ``page`` what comparing needs beyond the two Sides, computed from what
    :class:`Sides` read once per entity, not per pair: ``predicates`` between the two;
    ``not_same_as``; the ``ego``, ``neighbour`` and ``structural`` cosines in [-1, 1] (None when a
    vector is missing) and ``same_chunk``. ``ready``: side rows already read for the page."""
    sides = cache.load(db, _entities(page), ready)
    a_ids, b_ids = [r["a"] for r in page], [r["b"] for r in page]
    cosines = [sides.cosines(a_ids, b_ids, k) for k in range(len(VECTORS))]
    for i, r in enumerate(page):
        a, b = r["a"], r["b"]
        r["predicates"] = sides.between(a, b)
        r["not_same_as"] = (a, b) in forbidden
        r["ego"], r["neighbour"], r["structural"] = (c[i] for c in cosines)
        r["same_chunk"] = sides.same_chunk(a, b)
    return page, sides


def _pages_of(sources: list[dict[str, Any]], batch_size: int) -> Iterator[list[str]]:
    """The pairs of ``sources`` (``id``, ``rels``) in pages of whole entities, each page closed once
    it holds ``batch_size`` pairs."""
    page: list[str] = []
    for r in sources:
        page.extend(r["rels"])
        if len(page) >= batch_size:
            yield page
            page = []
    if page:
        yield page


def not_same_as(db: Database) -> set[tuple[str, str]]:
    """Every pair of current entities that a recorded NOT_SAME_AS separates, both ways round: through
    every entity their mentions ever referred to, so a rejection survives later merges."""
    out: set[tuple[str, str]] = set()
    for r in db.read("resolve_score_not_same_as", _plain=True):
        out.update((a, b) for a in r["xs"] for b in r["ys"] if a != b)
        out.update((b, a) for a in r["xs"] for b in r["ys"] if a != b)
    return out


def collect(source: Iterable[tuple[list[dict[str, Any]], "Sides"]], comps: list[Comparison],
            ambiguity: Ambiguity | None, tokens: TokenWeights | None = None,
            on_batch: Callable[[int], None] = lambda n: None, memo: PairMemo | None = None) -> Candidates:
    """Comparison vectors of every pair of ``source`` (:func:`pages`, :func:`pair_pages`), computed a
    page at a time; with a ``memo``, only for the pairs it does not hold from the same inputs (and
    those computed are added to it)."""
    out = Candidates()
    if memo is not None:
        memo.bind([(c.name, tuple(c.level_names())) for c in comps], tokens.weights if tokens else {},
                  tokens.default if tokens else 0.0, ambiguity)
    for page, sides in source:
        held: list[Compared | None] = [None] * len(page)
        if memo is not None:
            held = [memo.get(r["a"], r["b"], sides.fingerprint(r["a"]), sides.fingerprint(r["b"]), r["not_same_as"],
                             r["ego"], r["neighbour"], ambiguity) for r in page]
        fresh = iter(_compare([r for r, h in zip(page, held) if h is None], sides, comps, ambiguity, tokens,
                              memo is not None))
        compared = []
        for r, h in zip(page, held):
            c = h if h is not None else next(fresh)
            if h is None and memo is not None:
                memo.put(r["a"], r["b"], c)
            compared.append(c)
        out.add_page(page, compared)
        on_batch(len(page))
    return out


def _compare(page: list[dict[str, Any]], sides: "Sides", comps: list[Comparison], ambiguity: Ambiguity | None,
             tokens: TokenWeights | None, fingerprints: bool) -> list[Compared]:
    """The comparison outcome of each pair of ``page`` (rows as :func:`_complete` leaves them), with
    what :class:`PairMemo` checks before reusing it (``fingerprints``: the entities' and the short-form
    holder key's, else 0 and None: no memo will read them)."""
    pairs = [(sides.get(r["a"], r["b"]), sides.get(r["b"], r["a"])) for r in page]
    frame = PairFrame.of(pairs, [r["ego"] for r in page], [r["neighbour"] for r in page],
                         [r["same_chunk"] for r in page], ambiguity, tokens)
    gamma = vectors(frame, comps)
    out = []
    for i, (r, (x, y), (level, nx, ny), tf) in enumerate(zip(page, pairs, frame.names(), tf_values(frame, comps))):
        question = short_form_question(level, nx, ny) if fingerprints and ambiguity is not None else None
        key = ambiguity.key(nx.core, nx.tokens, ny.core, ny.tokens, *question) if question else None
        differ = OVERLAP_80 <= level <= OVERLAP_20 and (words_swapped(nx.tokens, ny.tokens) or head_added(nx, ny))
        merged_apart = titles_apart(x, y, tokens or UNIFORM)
        # names that each replace a word inside keep groups apart in clustering: the closest names, or
        # any two names of merged entities ("mining generalized / quantitative association rules", each
        # joined to a "mining association rules" one pass earlier, whose next copy must not bridge them)
        apart = "PERSON" not in (x.type, y.type) and (
            (differ and words_replaced(nx.tokens, ny.tokens))
            or (merged_apart and titles_apart(x, y, tokens or UNIFORM, replaced=True)))
        out.append(Compared(
            fa=sides.fingerprint(r["a"]) if fingerprints else 0, fb=sides.fingerprint(r["b"]) if fingerprints else 0,
            not_same_as=r["not_same_as"], short_key=key, short_version=ambiguity.version(key) if key else None,
            gamma=gamma[i].tobytes(), tf=tuple((k, v) for k, v in enumerate(tf) if v is not None),
            conflict=conflict(x, y, r["not_same_as"], r["predicates"]),
            swapped=differ or merged_apart, ego=r["ego"], neighbour=r["neighbour"], coded=shares_code(x, y),
            apart=apart))
    return out


def score_model(db: Database, run_id: str, cfg: ModelConfig = ModelConfig(), ambiguity: Ambiguity | None = None,
                model: MatchModel | None = None, batch_size: int = 2000,
                on_batch: Callable[[int], None] = lambda n: None) -> tuple[ScoreStats, MatchModel]:
    """Score ``run_id``'s unscored CANDIDATE pairs (written by :func:`~kgres.resolve.block.block`)
    with ``model``, or with the pinned model that fits the graph, or with one trained here (see
    :class:`ModelConfig`); store the model with the run.

    Raises:
        ConfigError: ``train = "never"`` and no pinned model fits the graph.
    """
    stats, model, _ = _score(db, run_id, lambda: pages(db, run_id, batch_size, structural=False), None, cfg,
                             ambiguity, model, batch_size, on_batch)
    return stats, model


# Which outcomes a score stage returns (:func:`score_pairs`): called with a pair's vetoed, band,
# name_rule, capped and apart (capped: its names share words, each has its own, neither is a person).
Keep = Callable[[bool, str, str | None, bool, bool], bool]


def score_pairs(db: Database, run_id: str, pairs: Mapping[tuple[str, str], Sequence[str]],
                cfg: ModelConfig = ModelConfig(), ambiguity: Ambiguity | None = None, model: MatchModel | None = None,
                batch_size: int = 2000, on_batch: Callable[[int], None] = lambda n: None, memo: PairMemo | None = None,
                keep: Keep | None = None, sides: "Sides | None" = None
                ) -> tuple[ScoreStats, MatchModel, list[dict[str, Any]]]:
    """:func:`score_model` for pairs held in memory (:class:`~kgres.resolve.block.Proposals`: id
    pairs, smaller id first, sorted, to the strategies that proposed them): each is written once, as
    a CANDIDATE of ``run_id`` carrying its outcome, instead of being written by blocking, read back
    and written again. Also returns each pair's outcome as :func:`~kgres.resolve.cluster.cluster_rows`
    reads it, or (``keep``, called with an outcome's ``vetoed``, ``band``, ``name_rule``, ``capped`` and
    ``apart``) only those it keeps (a pass's outcomes are held together until it clusters). A pass interrupted while
    writing is redone whole: the run's pairs are removed first.
    ``memo``: what earlier passes of the same resolve compared (:class:`PairMemo`), reused where
    unchanged; a pair whose edge would say exactly what the last edge a pass of the resolve wrote
    for it says (the same levels, evidence, probability, band and methods) is not written again:
    that edge stands for it (20k generated mentions: 274k of the 430k pairs of ten passes).
    ``sides``: the entities' sides earlier passes read (:class:`Sides`, without the topology vector),
    used where held; the sides read here are added to it.

    Raises:
        ConfigError: as :func:`score_model`.
    """
    while db.query("resolve_rollback_candidates", run_id=run_id, limit=50_000)[0]["removed"]:
        pass
    page = read_page(len(pairs), batch_size)
    return _score(db, run_id, lambda: pair_pages(db, pairs, page, structural=False, sides=sides), pairs, cfg,
                  ambiguity, model, batch_size, on_batch, memo, keep)


# Write transactions of a score stage in flight at once. With one, Python waited on the server for
# 19-20 s of a 100k-mention resolve's 74-79 s of scoring while building the next batch took a third
# of that; with two, 11 s. More would only queue behind the two cores.
SCORE_WRITERS = 2

# A run of few pairs (an increment's few thousand) is read in about READ_PAGES pages of at least
# MIN_READ_PAGE pairs, not one or two of ``batch_size``: the server reads a page's sides while Python
# compares the page before (:func:`_completed`), instead of Python waiting on the whole read first.
READ_PAGES = 8
MIN_READ_PAGE = 250


def read_page(pairs: int, batch_size: int) -> int:
    """How many pairs a page of a score stage of ``pairs`` pairs holds (about; pages hold whole entities)."""
    return max(MIN_READ_PAGE, min(batch_size, -(-pairs // READ_PAGES)))


def _score(db: Database, run_id: str, source: Callable[[], Iterable[tuple[list[dict[str, Any]], "Sides"]]],
           methods: Mapping[tuple[str, str], Sequence[str]] | None, cfg: ModelConfig, ambiguity: Ambiguity | None,
           model: MatchModel | None, batch_size: int, on_batch: Callable[[int], None], memo: PairMemo | None = None,
           keep: Keep | None = None) -> tuple[ScoreStats, MatchModel, list[dict[str, Any]]]:
    """Score the pairs of ``source`` and write the outcomes: onto their stored CANDIDATE edges
    (``methods`` None) or as new ones carrying ``methods``. Returns the stats, the model and the
    outcomes (:func:`cluster_rows`' rows), those ``keep`` keeps if given (:func:`score_pairs`)."""
    ambiguity = ambiguity if ambiguity is not None else load_ambiguity(db)
    trained = False
    sample = None
    if model is None:
        sample = training.sample(db, cfg)
        spec = training.attribute_spec(sample, cfg)
        model = None if cfg.train == "always" else pinned_model(db, comparisons(spec))
        if model is None and cfg.train == "never":
            raise ConfigError("[resolve.model] train = \"never\" but no pinned model fits this graph's comparisons; "
                              "run 'kgres model train' or 'kgres model import FILE'")
    comps = comparisons_of(model) if model is not None else comparisons(spec)
    tokens = model.tokens() if model is not None else training.token_weights(sample)
    cands = collect(source(), comps, ambiguity, tokens, on_batch, memo)
    gamma = cands.matrix(len(comps))
    if model is None:
        model = fit(db, comps, gamma, cands.conflict, sample, cfg, ambiguity, tokens)
        trained = True
    weights = match_weights(model, gamma, cands.tf)
    probs = probability(weights)
    vetoed = np.array([c is not None for c in cands.conflict], dtype=bool)
    probs = np.where(vetoed, 0.0, probs)
    t_auto = min(cfg.auto_ceiling, auto_threshold(probs[~vetoed], cfg.target_precision, cfg.auto_floor))
    capped = weak_names(gamma, comps, rare_agreements(model, cands, sample_entities(db, sample), gamma),
                        cands.column("swapped"), cands.column("coded"), cands.column("ego")) \
        if cfg.name_required else np.zeros(len(gamma), dtype=bool)
    against = riding_the_prior(gamma, comps, weights - model.prior_weight())
    t_review = min(cfg.review_probability, t_auto)
    precision, recall = expected_quality(probs[~vetoed], t_auto)
    bands = {"auto": 0, "review": 0, "reject": 0}
    write = "resolve_score_write" if methods is None else "resolve_score_create"
    rows, outcomes, unchanged = [], [], 0
    encode = EvidenceJson(comps)
    name_rules = [name_of_level(lv.name) for lv in comps[0].levels]  # by name level, as gamma's first column
    egos, neighbours, apart = cands.column("ego"), cands.column("neighbour"), cands.column("apart")
    # the server writes while the next batch is built, two batches at once (kgres.db.overlap): each
    # creates its own pairs' edges, and while one commits the server runs the other
    with Overlap("kgres-score-write", depth=SCORE_WRITERS) as ahead:
        for lo, hi in _chunks(len(cands)):
            # Python floats and bools, not numpy scalars, in the loop (the same values; a numpy
            # scalar's every access and comparison costs several times a float's), a chunk at a time
            prob, weight_of, is_capped = probs[lo:hi].tolist(), weights[lo:hi].tolist(), capped[lo:hi].tolist()
            is_apart = (capped[lo:hi] & apart[lo:hi]).tolist()
            is_against, first = against[lo:hi].tolist(), gamma[lo:hi, 0].tolist()
            ego, neighbour = _none_for_nan(egos[lo:hi]), _none_for_nan(neighbours[lo:hi])
            level_weights = model.cell_weights(gamma[lo:hi], cands.tf.window(lo, hi))
            rounded = np.round(level_weights, 4)  # as the evidence keeps them
            for j in range(hi - lo):
                i = lo + j
                held = APART if is_apart[j] else CAPPED if is_capped[j] else \
                    AGAINST if is_against[j] and prob[j] >= t_review else None
                band = "auto" if prob[j] >= t_auto and held is None else \
                    "review" if prob[j] >= t_review and prob[j] > 0 else "reject"
                bands[band] += 1
                a, b, p = cands.a[i], cands.b[i], round(prob[j], 6)
                name_rule = name_rules[first[j]] if first[j] != NULL else None
                weight = round(weight_of[j], 4)
                again = False
                if memo is not None and methods is not None:
                    # everything the pair's edge would say: an edge an earlier pass wrote saying it stands
                    # (the cosines as read, not rounded as the evidence keeps them: a float's round()
                    # costs a microsecond, and a cosine that moved below the fourth digit is rare)
                    again = memo.written(a, b, hash((
                        gamma[i].tobytes(), rounded[j].tobytes(), cands.conflict[i], ego[j],
                        neighbour[j], held, p, band, weight, tuple(methods[(a, b)]))))
                    unchanged += again
                # a rejected pair keeps no evidence (see the module docstring); an unchanged one's edge stands
                signals = None if band == "reject" or (again and band != "auto") else encode(
                    gamma[i], cands.conflict[i], ego[j], neighbour[j], held, level_weights[j])
                pair_vetoed, pair_capped = cands.conflict[i] is not None, held is not None
                if keep is None or keep(pair_vetoed, band, name_rule, pair_capped, is_apart[j]):
                    outcomes.append({"a": a, "b": b, "p": p, "band": band, "name_rule": name_rule,
                                     "vetoed": pair_vetoed, "capped": pair_capped, "apart": is_apart[j],
                                     "signals": signals if band == "auto" else None})
                if again:
                    continue
                row = {"a": a, "b": b, "score": p, "band": band, "match_weight": weight,
                       "cannot_link": cands.conflict[i], "name_rule": name_rule, "signals_json": signals}
                if methods is None:
                    row["rel"] = cands.rel[i]
                else:
                    row["methods"] = methods[(a, b)]
                rows.append(row)
                if len(rows) == batch_size:
                    ahead.submit(db.write, write, rows=rows, run_id=run_id)
                    rows = []
        if rows:
            ahead.submit(db.write, write, rows=rows, run_id=run_id)
    if trained:
        model.id, model.run_id = f"model-{uuid.uuid4().hex[:12]}", run_id
    store(db, model, run_id, trained=trained, pinned=False, thresholds=(t_auto, t_review), quality=(precision, recall))
    stats = ScoreStats(run_id=run_id, scored=len(cands), bands=bands, model_id=model.id, trained=trained,
                       unchanged=unchanged,
                       auto_threshold=round(t_auto, 6), review_threshold=round(t_review, 6),
                       expected_precision=round(precision, 4), expected_recall=round(recall, 4))
    return stats, model, outcomes


# Pairs a score stage weighs, and turns into Python values, at a time: each comparison's weight of
# every pair of a pass (float64) and its probabilities, weights, flags and cosines as Python values
# cost some 300 bytes a pair.
OUTCOME_CHUNK = 50_000


def _chunks(n: int) -> Iterator[tuple[int, int]]:
    return ((lo, min(n, lo + OUTCOME_CHUNK)) for lo in range(0, n, OUTCOME_CHUNK))


def match_weights(model: MatchModel, gamma: np.ndarray, cells: Cells) -> np.ndarray:
    """Each pair's match weight (:meth:`MatchModel.predict`), the comparisons' weights computed for
    :data:`OUTCOME_CHUNK` pairs at a time: the same floats, without a pass's whole matrix of them."""
    return np.concatenate([model.prior_weight() + model.cell_weights(gamma[lo:hi], cells.window(lo, hi)).sum(axis=1)
                           for lo, hi in _chunks(len(gamma))] or [np.zeros(0)])


def fit(db: Database, comps: list[Comparison], gamma: np.ndarray, conflicts: list[str | None],
        sample: training.Sample | None, cfg: ModelConfig, ambiguity: Ambiguity | None,
        tokens: TokenWeights | None = None) -> MatchModel:
    """Train a model on the candidate pairs no constraint forbids, anchored by what is certain:
    people's and the judge's decisions (:func:`training.labelled`), the pairs :func:`silver` finds,
    and the forbidden pairs as known non-matches of the comparisons their constraints do not read
    (:data:`CONSTRAINED`). Without those, EM on a graph whose candidates are mostly look-alike
    strangers (surnames several people share, company names of a few common words) can call
    "match" whatever shares context, and a shared neighbour outweighs every name (20k generated
    mentions: pair precision 0.04). They shape ``m`` and ``u`` but not the prior: the model is only
    ever asked about the pairs no constraint decides."""
    sample = sample if sample is not None else training.sample(db, cfg)
    tokens = tokens if tokens is not None else training.token_weights(sample)
    u_random, tf = training.chance(sample, comps, cfg, ambiguity, tokens)
    allowed = np.array([c is None for c in conflicts], dtype=bool)
    free, forbidden = gamma[allowed], gamma[~allowed].copy()
    forbidden[:, [k for k, c in enumerate(comps) if c.name in CONSTRAINED]] = NULL
    label_gamma, label_values = training.labelled(db, comps)
    rows = np.concatenate([free, forbidden, label_gamma])
    labels = np.concatenate([np.where(silver(free, comps), 1.0, np.nan), np.zeros(len(forbidden)), label_values])
    weights = np.concatenate([np.ones(len(free) + len(forbidden)), np.full(len(label_values), cfg.label_weight)])
    in_share = np.concatenate([np.ones(len(free), dtype=bool), np.zeros(len(forbidden), dtype=bool),
                               np.ones(len(label_values), dtype=bool)])
    model = train(rows, comps, u_random, labels, weights=weights, max_iterations=cfg.max_iterations,
                  in_share=in_share)
    model.labels = int(len(label_values))  # people's and the judge's
    model.u_source = cfg.u_source if cfg.u_source != "auto" else \
        "candidates" if len(free) >= cfg.min_pairs else "random"
    n = max(2, sample.entities)
    model.candidate_share = min(1.0, len(gamma) / (n * (n - 1) / 2)) if len(gamma) else 1.0
    for c in model.comparisons:
        if c.name in tf:
            c.tf, c.tf_baseline, c.tf_total = _bounded(tf[c.name][0]), tf[c.name][1], tf[c.name][2]
    model.token_weights, model.token_default = tokens.weights, tokens.default
    return model


# A pair whose names share nothing may auto-merge on its texts embedding at least this alike.
NAMELESS_COSINE = 0.95


def weak_names(gamma: np.ndarray, comps: list[Comparison], rare: np.ndarray | None = None,
               swapped: np.ndarray | None = None, coded: np.ndarray | None = None,
               egos: np.ndarray | None = None) -> np.ndarray:
    """Pairs whose names say nothing, or say they differ, so they never auto-merge on other evidence alone:

    - names that share no word or only common ones (``none``, ``overlap_20``) and whose texts do not
      embed nearly alike (``egos``, the text embeddings' cosine, under :data:`NAMELESS_COSINE`; without
      them, the name level's cosine band under 0.9). Things one passage lists together ("bedroom",
      "sitting-room", "closet" in one sentence of A Christmas Carol) share their chunk, their
      neighbours and much of their description, and embed at 0.9-0.91;
    - names that share words but each has its own (``swapped``: "Quantum Royal Laboratory" /
      "Quantum Applied Laboratory"): companies, products and places named from a few common words
      share context too (20k generated mentions: most false merges), or a common-noun compound and
      its modifier (``head_added``: "Content management" / "Content management systems");
    - unless two rare dates or codes agree (``rare``: a register's record, named by a clerk who
      misspelt or replaced the name), or the names share a model code (``coded``: two shops' titles
      of one product, each with words of its own around "DMC-FX534");
    - a short form several entities of the graph could carry ("Cratchit": Bob, Martha, Mrs.), unless
      the two share a fifth of their neighbours or more (the old rules' context test) or one rare
      date or code: family members share context too, so context alone does not place such a name,
      but they do not share a date of birth.
    """
    rare = np.zeros(len(gamma), dtype=np.int16) if rare is None else rare
    if coded is not None:
        rare = rare + RARE_AGREEMENTS * coded.astype(np.int16)
    swapped = np.zeros(len(gamma), dtype=bool) if swapped is None else swapped
    k = {c.name: i for i, c in enumerate(comps)}
    names, band = gamma[:, k["name"]] // BANDS, gamma[:, k["name"]] % BANDS
    alike = band == 0 if egos is None else (band == 0) & (np.nan_to_num(egos, nan=-2.0) >= NAMELESS_COSINE)
    nameless = ((np.isin(names, [NONE, OVERLAP_20]) & ~alike) | swapped) & (rare < RARE_AGREEMENTS)
    ambiguous = (gamma[:, k["short_form"]] == 2) & ~np.isin(gamma[:, k["neighbours"]], [0, 1]) & (rare < 1)
    return nameless | ambiguous


RARE_VALUE = 10  # a value at most this many entities carry (as the sample estimates) identifies
RARE_AGREEMENTS = 2  # ... and two of them agreeing identify a record, whatever its name says
# The levels at which a date or a code counts as a second agreement beside a rare exact one: a key
# slipped, a month off (dates); a character or a few slipped (codes).
NEAR_LEVELS = {"date": ("one_edit", "within_month"), "code": ("one_edit", "two_edits", "close")}


def rare_agreements(model: MatchModel, cands: Candidates, entities: int, gamma: np.ndarray | None = None
                    ) -> np.ndarray:
    """Per pair, how many dates or codes few entities carry it agrees on exactly (a date of birth and
    a tax number identify a record), as opposed to what a group shares (the album of twelve songs,
    its label and release date; a city). Beside one such, another date or code that agrees at all
    (exactly on a common value, or nearly: :data:`NEAR_LEVELS`, in ``gamma``) counts too: a register's
    record typed twice keeps its date of birth and slips a key of its email (fake_1000: "Lex Gorodon"
    / "Lexi", the same email and a birth date a month apart)."""
    counts = np.zeros(len(cands), dtype=np.int16)
    weights = {k: c for k, c in enumerate(model.comparisons) if c.kind in ("date", "code") and c.tf}
    exact = np.zeros((len(cands), len(model.comparisons)), dtype=bool)
    for (i, k), value in cands.tf.items():
        c = weights.get(k)
        if c is not None:
            share = c.tf_share(value)
            rare = share * entities <= RARE_VALUE  # about how many entities carry the value
            counts[i] += rare
            exact[i, k] = rare
    if gamma is None:
        return counts
    near = np.zeros(len(cands), dtype=np.int16)
    for k, c in enumerate(model.comparisons):
        if c.kind in NEAR_LEVELS:
            agree = np.isin(gamma[:, k], [0, *(c.levels.index(n) for n in NEAR_LEVELS[c.kind] if n in c.levels)])
            near += agree & ~exact[:, k]
    return counts + np.where(counts >= 1, near, 0)


def sample_entities(db: Database, sample: training.Sample | None) -> int:
    return sample.entities if sample is not None else db.count("Entity")


def silver(gamma: np.ndarray, comps: list[Comparison]) -> np.ndarray:
    """Pairs certain enough to anchor training as matches: the same name (or a spelling or an acronym
    of it) that is not a short form several entities could carry, with no attribute that differs.
    Without them, EM is free to call "match" whatever cluster of pairs is most alike (rooms of one
    house, songs of one album) rather than what is one thing."""
    names = {c.name: k for k, c in enumerate(comps)}
    out = np.isin(gamma[:, names["name"]] // BANDS, [SAME_KEY, TYPO, LEGAL_SUFFIX, ACRONYM])
    out &= gamma[:, names["short_form"]] != 2  # not an ambiguous short form
    for k, c in enumerate(comps):
        if c.kind != "fixed":
            out &= gamma[:, k] != len(c.levels) - 1
    return out


def _bounded(tf: dict[str, float], keep: int = 5000) -> dict[str, float]:
    """The most common values' shares (a rare value's share defaults to half the rarest kept)."""
    if len(tf) <= keep:
        return tf
    return dict(sorted(tf.items(), key=lambda t: (-t[1], t[0]))[:keep])


def riding_the_prior(gamma: np.ndarray, comps: list[Comparison], evidence_weight: np.ndarray) -> np.ndarray:
    """Pairs whose names share only some words, whose name embeddings disagree (cosine under 0.8) and
    whose evidence does not favour a match (odds no better than the prior's): they never merge on
    their own. On a graph whose candidates are nearly all identical-name matches the prior is high
    (0.985 on CESI's ambiguous phrases, 1.0 on its base ones), and it alone carried "Diesel fuel" into
    "Fuel" and "Content analysis" into "Content" (cesi-ambiguous: 178k false pairs). Holding every
    pair without favourable evidence held "Portland" / "Portland Maine" too (close embeddings) and
    cost cesi-base a tenth of its recall; same-key, typo, legal-suffix and acronym names keep the prior."""
    held = np.array([name_of_level(lv.name).startswith("overlap") and not lv.name.endswith(("cos>=0.9", "cos>=0.8"))
                     for lv in comps[0].levels] + [False])
    return held[gamma[:, 0]] & (evidence_weight <= 0)


APART = ("the names share words and each has words of its own (two papers, two companies of one family): "
         "it merges only by a decision, and the groups holding the two do not join in the same pass")
CAPPED = ("the names alone cannot place the pair (too little shared, a word of each side's own, or an ambiguous "
          "short form): it merges only by a decision")
AGAINST = ("its names share only some words and mean different things, and its evidence does not favour a match "
           "(the probability comes from the prior, the share of matches among the candidates): it merges only by a "
           "decision")


def evidence(comps: list[Comparison], levels: np.ndarray, cannot_link: str | None, ego: float | None,
             neighbour: float | None, capped: str | None = None, weights: np.ndarray | None = None) -> dict[str, Any]:
    """What an auto or review pair's ``signals_json`` keeps (a reject's keeps none): its level per
    comparison and that level's weight (log2 Bayes factor, term-frequency adjusted: with the model's
    prior, the waterfall ``kgres explain --pair`` prints), the name level as ``name_rule``, the
    cosines, a cannot-link reason, and ``capped``: why a pair above the auto threshold was held in
    review (:data:`CAPPED`, :data:`AGAINST`)."""
    named = {c.name: c.levels[lv].name for c, lv in zip(comps, levels) if lv != NULL}
    out: dict[str, Any] = {"levels": named, "name_rule": name_of_level(named["name"]) if "name" in named else None}
    if weights is not None:
        out["weights"] = {c.name: round(float(w), 4) for c, lv, w in zip(comps, levels, weights) if lv != NULL}
    if ego is not None:
        out["ego_cosine"] = round(ego, 4)
    if neighbour is not None:
        out["neighbour_cosine"] = round(neighbour, 4)
    if cannot_link:
        out["cannot_link"] = cannot_link
    if capped:
        out["capped"] = capped
    return out


EVIDENCE_KEPT = 100_000  # weight vectors EvidenceJson keeps encoded


class EvidenceJson:
    """``json.dumps(evidence(...), sort_keys=True)``, string for string, from parts kept per level
    vector and per weight vector: most pairs of a pass repeat a few level vectors (a dict encoded
    per pair: 3.3 s of json for 170k pairs at 20k generated mentions, profiled)."""

    def __init__(self, comps: list[Comparison]) -> None:
        self.comps = comps
        self._levels: dict[bytes, tuple[str, str]] = {}
        self._weights: dict[tuple[bytes, bytes], str] = {}

    def __call__(self, levels: np.ndarray, cannot_link: str | None, ego: float | None, neighbour: float | None,
                 capped: str | None = None, weights: np.ndarray | None = None) -> str:
        key = levels.tobytes()
        if key not in self._levels:
            named = evidence(self.comps, levels, None, None, None)
            self._levels[key] = (json.dumps(named["levels"], sort_keys=True), json.dumps(named["name_rule"]))
        named_json, rule_json = self._levels[key]
        parts = []  # in sort_keys order
        if cannot_link:
            parts.append('"cannot_link": ' + json.dumps(cannot_link))
        if capped:
            parts.append('"capped": ' + json.dumps(capped))
        if ego is not None:
            parts.append('"ego_cosine": ' + _number(round(ego, 4)))
        parts.append('"levels": ' + named_json)
        parts.append('"name_rule": ' + rule_json)
        if neighbour is not None:
            parts.append('"neighbour_cosine": ' + _number(round(neighbour, 4)))
        if weights is not None:
            wkey = (key, weights.tobytes())
            if wkey not in self._weights:
                if len(self._weights) >= EVIDENCE_KEPT:  # term-frequency adjusted weights vary by name
                    self._weights.clear()
                named = evidence(self.comps, levels, None, None, None, None, weights)
                self._weights[wkey] = json.dumps(named["weights"], sort_keys=True)
            parts.append('"weights": ' + self._weights[wkey])
        return "{" + ", ".join(parts) + "}"


def _number(x: float) -> str:
    """``x`` as ``json.dumps`` writes it (``float.__repr__``: a numpy float's own repr names its type)."""
    return float.__repr__(x) if math.isfinite(x) else json.dumps(x)


# -- the rule scorer --------------------------------------------------------------------------------

def score(db: Database, run_id: str, cfg: ScoreConfig = ScoreConfig(),
          on_batch: Callable[[int], None] = lambda n: None, ambiguity: Ambiguity | None = None) -> ScoreStats:
    """Score every unscored CANDIDATE of ``run_id`` with the rule table; write score, band and signals.
    ``ambiguity`` defaults to the graph's holder table (:func:`load_ambiguity`)."""
    ambiguity = ambiguity if ambiguity is not None else load_ambiguity(db)
    scored, bands = 0, {"auto": 0, "review": 0, "reject": 0}
    for page, sides in pages(db, run_id, cfg.batch_size):
        rows = []
        for r in page:
            sem = Semantic(ego=r["ego"], neighbour=r["neighbour"], structural=r["structural"],
                           same_chunk=r["same_chunk"])
            s = compare(sides.get(r["a"], r["b"]), sides.get(r["b"], r["a"]), cfg, not_same_as=r["not_same_as"],
                        predicates_between=r["predicates"], semantic=sem, ambiguity=ambiguity)
            bands[s.band] += 1
            rows.append({"rel": r["rel"], "a": r["a"], "b": r["b"], "score": s.score, "band": s.band,
                         "match_weight": None, "name_rule": s.signals.get("name_rule"), "cannot_link": s.cannot_link,
                         "signals_json": json.dumps(s.signals, sort_keys=True)})
        db.write("resolve_score_write", rows=rows, run_id=run_id)
        scored += len(rows)
        on_batch(len(rows))
    return ScoreStats(run_id=run_id, scored=scored, bands=bands)


# What resolve_score_sides reads of each entity besides its Side: its vectors (in this order: the
# ego, neighbour and structural cosines) and the chunks its mentions are in.
VECTORS = ("embedding", "context_embedding", "fastrp")
# How many entities' sides a score stage keeps across pages, or a resolve across its passes (about
# 5 kB each with their vectors).
SIDES_KEPT = 50_000


class Sides:
    """The Sides of the entities of a stage's pages (``resolve_score_sides`` rows), built once per
    entity and kept across pages (an entity is the far side of pairs on many pages; nothing about it
    changes while a stage scores), the ``limit`` most recently needed at most. Seen from a pair, an
    entity's neighbours leave out the other side itself: two related duplicates would otherwise count
    each other ("PERSON|holmes" on both sides) as shared context.

    The passes of one resolve share one (:func:`score_pairs`' ``sides``): whoever changes entities
    between two stages makes it :meth:`forget` them (kgres.resolve.pipeline forgets what a pass merged
    and the neighbours of what it merged into), and the next stage reads only those again."""

    def __init__(self, rows: list[dict[str, Any]] = (), limit: int | None = None, structural: bool = True) -> None:
        self._rows: OrderedDict[str, dict[str, Any]] = OrderedDict()
        self.limit = SIDES_KEPT if limit is None else limit
        self._vectors = [_Matrix(self.limit + _Matrix.GROW) for _ in VECTORS]
        self._chunks: dict[str, frozenset[str]] = {}
        self._plain: dict[str, Side] = {}
        self._around: dict[str, _Around] = {}
        self._fingerprints: dict[str, int] = {}
        self.structural = structural  # rows read here carry the topology FastRP vector (:meth:`read`)
        self._add(rows)

    def _add(self, rows: list[dict[str, Any]]) -> None:
        for r in rows:
            e = dict(r["e"])
            if e.get("nbrs"):  # in an order of their own, so that one entity reads the same in every pass
                e["nbrs"] = sorted(e["nbrs"], key=lambda n: (n[0], n[2] or ""))
            for matrix, k in zip(self._vectors, VECTORS):
                matrix.put(e["id"], _unit(e.pop(k, None)))
            self._chunks[e["id"]] = frozenset(e.pop("chunks", None) or ())
            self._rows[e["id"]] = e

    def missing(self, ids: list[str]) -> list[str]:
        """Those of ``ids`` not kept here."""
        return [i for i in ids if i not in self._rows]

    @staticmethod
    def read(db: Database, ids: list[str], structural: bool = True) -> list[dict[str, Any]]:
        """The ``resolve_score_sides`` rows of ``ids`` (touches no cache: safe on another thread);
        ``structural``: with their topology FastRP vectors."""
        return db.read("resolve_score_sides", _plain=True, ids=ids, structural=structural) if ids else []

    def load(self, db: Database, ids: list[str], ready: Iterable[dict[str, Any]] = ()) -> "Sides":
        """Make sure the entities ``ids`` are here, taking their rows from ``ready`` (read ahead)
        and reading only those still missing, neither kept from earlier pages nor read ahead."""
        self._add([r for r in ready if r["e"]["id"] not in self._rows])
        if missing := self.missing(ids):
            self._add(self.read(db, missing, self.structural))
        for i in ids:
            if i in self._rows:
                self._rows.move_to_end(i)
        while len(self._rows) > max(self.limit, len(ids)):
            gone, _ = self._rows.popitem(last=False)
            self._drop(gone)
        return self

    def __len__(self) -> int:
        return len(self._rows)

    def forget(self, ids: Iterable[str]) -> None:
        """Drop what is kept of ``ids`` (changed since they were read): a later load reads them again."""
        for id_ in ids:
            if self._rows.pop(id_, None) is not None:
                self._drop(id_)

    def _drop(self, id_: str) -> None:
        for kept in (self._plain, self._around, self._chunks, self._fingerprints):
            kept.pop(id_, None)
        for matrix in self._vectors:
            matrix.drop(id_)

    def fingerprint(self, id_: str) -> int:
        """A hash of what the match model's comparisons read about the entity besides the cosines of its
        vectors (which :class:`~kgres.resolve.score.memo.PairMemo` compares itself): its row and chunks."""
        if id_ not in self._fingerprints:
            self._fingerprints[id_] = hash((repr(self._rows[id_]), self._chunks[id_]))
        return self._fingerprints[id_]

    def cosine(self, a: str, b: str, k: int) -> float | None:
        """Cosine in [-1, 1] of ``a``'s and ``b``'s ``VECTORS[k]``; None when either is missing or zero."""
        x, y = self._vectors[k].get(a), self._vectors[k].get(b)
        return None if x is None or y is None else float(np.dot(x, y))

    def cosines(self, a: list[str], b: list[str], k: int) -> list[float | None]:
        """:meth:`cosine` of each pair ``(a[i], b[i])``, as one product over the page (a page of 2,000
        pairs makes 6,000 cosines: one dot product each took ~10 s, profiled, of a 100k-mention resolve)."""
        matrix = self._vectors[k]
        if matrix.odd:  # vectors of two sizes (never after one embed stage)
            return [self.cosine(x, y, k) for x, y in zip(a, b)]
        if matrix.data is None:
            return [None] * len(a)
        ia = np.fromiter((matrix.row[x] for x in a), dtype=np.int64, count=len(a))
        ib = np.fromiter((matrix.row[y] for y in b), dtype=np.int64, count=len(b))
        dots = np.einsum("ij,ij->i", matrix.data[ia], matrix.data[ib])
        both = matrix.has[ia] & matrix.has[ib]
        return [d if ok else None for d, ok in zip(dots.tolist(), both.tolist())]

    def same_chunk(self, a: str, b: str) -> bool:
        """Whether a mention of ``a`` and one of ``b`` share a chunk."""
        return not self._chunks[a].isdisjoint(self._chunks[b])

    def between(self, a: str, b: str) -> list[str]:
        """The predicates of the RELATED edges between ``a`` and ``b``."""
        if b not in self._side(a).neighbours:  # most pairs: no edge, and no index of the edges to build
            return []
        return list(self._around_of(a).predicates.get(b, ()))

    def get(self, id_: str, other: str) -> Side:
        """``id_``'s Side as seen from a pair with ``other``: without ``other`` among its neighbours."""
        plain = self._side(id_)
        if other not in plain.neighbours:
            return plain
        around = self._around_of(id_)
        # a related pair (a large resolved entity has hundreds of neighbours): the plain Side less
        # the other one, not a Side built again from the row (20k pairs of an increment at 100k: 2.5 s)
        kept = {"neighbours": plain.neighbours - {other},
                "typed_neighbours": plain.typed_neighbours - around.only(other)}
        return replace(plain, **kept, aliases=tuple(replace(x, **kept) for x in plain.aliases))

    def _side(self, id_: str) -> Side:
        """``id_``'s Side with every neighbour."""
        if id_ not in self._plain:
            nbrs = self._rows[id_].get("nbrs") or ()
            self._plain[id_] = Side.from_row({**self._rows[id_], "neighbours": [n[0] for n in nbrs],
                                              "typed_neighbours": [n[1] for n in nbrs]})
        return self._plain[id_]

    def _around_of(self, id_: str) -> "_Around":
        if id_ not in self._around:
            self._around[id_] = _Around.of(self._rows[id_].get("nbrs") or ())
        return self._around[id_]


class _Matrix:
    """One of :data:`VECTORS` for the entities a :class:`Sides` keeps: a row each of one matrix (unit
    vectors, float64), rows of entities it no longer keeps used again. A page's cosines gather their
    rows; stacking each entity's vector into a matrix of the page again was a twelfth of a score stage
    in Python (100k generated mentions, sampled). The matrix is allocated for ``rows`` at once, as
    zeros the system maps only where rows are written (a small run touches what it uses), and grows
    only past them, so it is not copied as it fills."""

    GROW = 4096  # rows added at a time past the first ``rows``

    def __init__(self, rows: int = GROW) -> None:
        self.row: dict[str, int] = {}
        self.data: np.ndarray | None = None  # rows x dimensions, from the first vector put
        self.has = np.zeros(rows, dtype=bool)  # whether a row holds a vector (a missing one: False)
        self.odd: dict[str, np.ndarray] = {}  # vectors of another length than the first one's
        self._free: list[int] = []  # rows of entities dropped, used again first
        self._used = 0  # rows handed out so far

    def put(self, id_: str, vector: np.ndarray | None) -> None:
        self.drop(id_)  # put again: its old row is free
        if vector is not None and self.data is not None and vector.shape != self.data.shape[1:]:
            self.odd[id_], vector = vector, None
        if not self._free and self._used == len(self.has):
            self.has = np.concatenate([self.has, np.zeros(self.GROW, dtype=bool)])
            if self.data is not None:
                self.data = np.concatenate([self.data, np.zeros((self.GROW, self.data.shape[1]))])
        if vector is not None and self.data is None:
            self.data = np.zeros((len(self.has), len(vector)))
        if self._free:
            i = self._free.pop()
        else:
            i, self._used = self._used, self._used + 1
        self.row[id_] = i
        self.has[i] = vector is not None
        if vector is not None:
            self.data[i] = vector

    def drop(self, id_: str) -> None:
        if (i := self.row.pop(id_, None)) is not None:
            self.has[i] = False
            self._free.append(i)
        self.odd.pop(id_, None)

    def get(self, id_: str) -> np.ndarray | None:
        if id_ in self.odd:
            return self.odd[id_]
        i = self.row[id_]
        return self.data[i] if self.has[i] else None


@dataclass(frozen=True)
class _Around:
    """An entity's ``nbrs`` rows (neighbour id, its typed key, the predicate) indexed by neighbour:
    the predicates of the edges to each, and the typed keys that only one neighbour gives."""

    predicates: dict[str, list[str]]
    typed: dict[str, frozenset[str]]
    holders: dict[str, int]  # typed key -> how many neighbours give it

    @classmethod
    def of(cls, nbrs: Iterable[tuple]) -> "_Around":
        predicates: dict[str, list[str]] = {}
        typed: dict[str, set[str]] = {}
        for n, t, p in nbrs:
            predicates.setdefault(n, []).append(p)
            typed.setdefault(n, set()).add(t)
        holders: dict[str, int] = {}
        for keys in typed.values():
            for t in keys:
                holders[t] = holders.get(t, 0) + 1
        return cls(predicates, {n: frozenset(ts) for n, ts in typed.items()}, holders)

    def only(self, n: str) -> frozenset[str]:
        """The typed keys that neighbour ``n`` alone gives."""
        return frozenset(t for t in self.typed.get(n, ()) if self.holders[t] == 1)


def _unit(vector: bytes | list[float] | None) -> np.ndarray | None:
    """``vector`` (as :func:`~kgres.db.vectors.unpacked` reads it) scaled to length 1 (float64, so that a
    dot product is the cosine), or None when it is missing or zero."""
    v = unpacked(vector)
    if v is None:
        return None
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else None


def load_ambiguity(db: Database, lazy: bool = False) -> Ambiguity:
    """The graph's short-form holder table, with spelling variants of one name counted once; ``lazy``:
    read key by key as it is asked (:meth:`Ambiguity.lazy`), not whole."""
    return (Ambiguity.lazy if lazy else Ambiguity.load)(db, same_name_tokens)
