"""The match model: Fellegi-Sunter over comparison levels, learned from each graph.

For every comparison ``k`` and level ``l``: ``m[k][l]``, the share of matching pairs at that level,
and ``u[k][l]``, the share of non-matching pairs. A pair's *match weight* is the log2 prior odds plus,
for each comparison, ``log2(m/u)`` of its level (its Bayes factor; a null level adds nothing); its
match probability is ``2^w / (1 + 2^w)``. Exact matches of a value (a name key, a date of birth)
are adjusted by how common the value is: two "John"s say less than two "Ebenezer"s (Splink's
term-frequency adjustment: the factor is P(two random entities agree exactly) / P(both carry this value)).

Training, unsupervised, per graph (:func:`train`):

- ``u_random``: level frequencies over random pairs of entities (:mod:`kgres.resolve.score.training`
  samples them), what chance agreement looks like in this graph;
- ``m``, ``u`` and the prior (the share of matches among candidate pairs) by expectation
  maximisation over the run's candidate pairs, drawn towards declared priors (each level's
  ``m_prior``) as much as a few dozen pairs would, so a small graph leans on them and a large one
  learns its own. Pairs a constraint forbids are known non-matches and people's (and the judge's)
  decisions are known either way: their responsibilities are fixed, so every decision moves the
  next model.

Probabilities are computed against the candidate pairs' own ``u`` (``u_source = "candidates"``):
candidates were proposed because they look alike, so chance agreement among them is what a
probability over them must discount; ``u_random`` would count a shared surname among candidates as
rare when it is the reason they are candidates. ``u_source = "random"`` gives Splink's choice
(``u_random`` with the prior rescaled to all pairs) for comparison.
"""

from __future__ import annotations

import json
import math
from array import array
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

import numpy as np

from kgres.resolve.score.levels import NULL, Comparison, TokenWeights

MODEL_VERSION = "fellegi-sunter-1"
TF_CLAMP = 100.0  # a term-frequency factor stays within [1/100, 100]
SMOOTHING = 0.5  # pseudo-pairs added to every level, so no level has probability 0
PRIOR_PAIRS = 30.0  # how many pairs the prior m (each level's m_prior) and u (all candidates' levels) weigh
PRIOR_MATCH_SHARE, PRIOR_SHARE_PAIRS = 0.2, 10.0  # the prior's share of matches among candidates, and its weight


def chance_of(carriers: float, total: int) -> float:
    """How likely another of ``total`` carriers is to carry a value ``carriers`` of them carry:
    (carriers - 1) / (total - 1), a carrier never agreeing with itself."""
    return (carriers - 1) / max(total - 1, 1)


@dataclass
class ComparisonWeights:
    """One comparison's levels and their learned probabilities."""

    name: str
    kind: str
    levels: list[str]
    m: list[float]
    u: list[float]
    u_random: list[float]
    tf: dict[str, float] = field(default_factory=dict)  # value -> share of sampled entities carrying it
    tf_levels: list[int] = field(default_factory=list)  # levels whose weight the shared value's frequency adjusts
    tf_baseline: float = 0.0  # what an agreeing value's chance agreement is on average (see tf_factor)
    tf_total: int = 0  # carriers the shares were counted over (0: a model from before this was kept)

    def log2_bf(self, u_source: str) -> np.ndarray:
        u = np.asarray(self.u if u_source == "candidates" else self.u_random)
        return np.log2(np.asarray(self.m) / u)

    def tf_share(self, value: str) -> float:
        """The share of sampled entities carrying ``value``; one the sample never kept counts as
        half as common as the rarest it did."""
        share = self.tf.get(value)
        if share is None:
            if getattr(self, "_rarest", None) is None:
                self._rarest = min(self.tf.values())  # not a field: computed once, never stored
            share = self._rarest / 2
        return share

    def tf_chance(self, value: str) -> float:
        """How likely another entity is to carry ``value`` too: (carriers - 1) / (total - 1), the
        carrier itself left out; a value the sample saw once or never counts as half as likely as one
        it saw twice."""
        return chance_of(max(round(self.tf.get(value, 0.0) * self.tf_total), 1.5), self.tf_total)

    def tf_factor(self, value: str | None) -> float:
        """log2 of the term-frequency adjustment of an exact match on ``value`` (0 when unknown): how
        much rarer ``value`` is than the value an agreeing pair shares on average (``tf_baseline``)."""
        if value is None or not self.tf or self.tf_baseline <= 0:
            return 0.0
        chance = self.tf_chance(value) if self.tf_total else self.tf_share(value)
        return math.log2(min(TF_CLAMP, max(1 / TF_CLAMP, self.tf_baseline / chance)))


@dataclass
class MatchModel:
    """A trained model: comparisons with their weights, the prior, and how it was trained."""

    comparisons: list[ComparisonWeights]
    prior: float  # P(match) among candidate pairs
    candidate_share: float = 1.0  # candidate pairs / all entity pairs (to rescale the prior to all pairs)
    u_source: Literal["candidates", "random"] = "candidates"  # see training.ModelConfig.u_source
    pairs: int = 0
    labels: int = 0
    iterations: int = 0
    converged: bool = False
    version: str = MODEL_VERSION
    id: str = ""
    trained_at: str = ""
    run_id: str | None = None
    token_weights: dict[str, float] = field(default_factory=dict)  # how much a shared name word says
    token_default: float = 1.0

    def tokens(self) -> TokenWeights:
        return TokenWeights(self.token_weights, self.token_default)

    # -- what it is ------------------------------------------------------------------------------
    def spec(self) -> list[tuple[str, str]]:
        """(comparison, kind) in order: two models with one spec weigh the same evidence."""
        return [(c.name, c.kind) for c in self.comparisons]

    def prior_weight(self) -> float:
        prior = self.prior if self.u_source == "candidates" else self.prior * self.candidate_share
        prior = min(1 - 1e-12, max(1e-12, prior))
        return math.log2(prior / (1 - prior))

    def level_weights(self) -> list[np.ndarray]:
        return [c.log2_bf(self.u_source) for c in self.comparisons]

    # -- predicting ------------------------------------------------------------------------------
    def weights(self, gamma: np.ndarray, tf_values: Sequence[Sequence[str | None]] | None = None) -> np.ndarray:
        """Per pair and comparison, the log2 Bayes factor of its level (0 for null), term-frequency adjusted.

        The adjustment only scales evidence the level gives: an exact agreement whose level weighs
        nothing or less among the candidates (a venue or a year most candidate pairs share) gains
        nothing from its value being rare, and a common value's agreement weighs at least nothing,
        never against a match (DBLP-Scholar: "sigmod conference" agreeing cost a true pair 1.1 bits)."""
        return self.cell_weights(gamma, None if tf_values is None else {
            (i, k): v for i, row in enumerate(tf_values) for k, v in enumerate(row) if v is not None})

    def cell_weights(self, gamma: np.ndarray, tf: "Mapping[tuple[int, int], str] | Cells | None" = None
                     ) -> np.ndarray:
        """:meth:`weights`, the term-frequency values given as cells, (pair, comparison) -> value: a
        score stage has them for few of its pairs (a list of values per pair held 1M mentions' 5.9M
        pairs' worth of lists, to adjust a fraction of them)."""
        out = np.zeros(gamma.shape, dtype=np.float64)
        for k, lw in enumerate(self.level_weights()):
            col = gamma[:, k]
            known = col != NULL
            out[known, k] = lw[col[known]]
        levels = [set(c.tf_levels) if c.tf else None for c in self.comparisons]
        for (i, k), value in (tf or {}).items():
            if levels[k] is not None and gamma[i, k] in levels[k] and out[i, k] > 0:
                out[i, k] = max(0.0, out[i, k] + self.comparisons[k].tf_factor(value))
        return out

    def predict(self, gamma: np.ndarray, tf_values: Sequence[Sequence[str | None]] | None = None,
                level_weights: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Match weights and match probabilities of the pairs of ``gamma``; ``level_weights``: their
        :meth:`weights`, if already computed."""
        w = self.prior_weight() + (level_weights if level_weights is not None else
                                   self.weights(gamma, tf_values)).sum(axis=1)
        return w, probability(w)

    def waterfall(self, levels: Sequence[int], tf_values: Sequence[str | None] | None = None) -> list[dict[str, Any]]:
        """One pair's evidence, step by step: the prior, then each comparison's level and its Bayes
        factor (log2), with the running match weight and probability. The last row's probability is
        the pair's."""
        gamma = np.asarray([levels], dtype=np.int8)
        weights = self.weights(gamma, [list(tf_values)] if tf_values is not None else None)[0]
        total = self.prior_weight()
        rows = [{"step": "prior", "level": None, "bayes_factor": 2 ** total, "log2": round(total, 4),
                 "match_weight": round(total, 4), "probability": float(probability(np.array([total]))[0])}]
        for c, lv, w in zip(self.comparisons, levels, weights):
            total += w
            rows.append({"step": c.name, "level": None if lv == NULL else c.levels[lv], "bayes_factor": 2 ** w,
                         "log2": round(float(w), 4), "match_weight": round(total, 4),
                         "probability": float(probability(np.array([total]))[0])})
        return rows

    # -- storage ----------------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(asdict(self), sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> "MatchModel":
        data = json.loads(text)
        data["comparisons"] = [ComparisonWeights(**c) for c in data["comparisons"]]
        return cls(**data)


def probability(weight: np.ndarray) -> np.ndarray:
    """2^w / (1 + 2^w), computed stably."""
    return 1.0 / (1.0 + np.exp2(-np.clip(weight, -60, 60)))


def level_counts(gamma: np.ndarray, comps: Sequence[Comparison], weights: np.ndarray | None = None) -> list[np.ndarray]:
    """Per comparison, the (weighted) number of pairs at each level (nulls left out)."""
    out = []
    for k, c in enumerate(comps):
        col = gamma[:, k]
        known = col != NULL
        w = weights[known] if weights is not None else None
        out.append(np.bincount(col[known], weights=w, minlength=len(c.levels)).astype(np.float64))
    return out


def _pava(values: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Weighted pool-adjacent-violators: the closest non-increasing sequence."""
    blocks: list[list[float]] = []  # [weighted mean, weight, count]
    for r, w in zip(values, np.maximum(weights, 1e-9)):
        blocks.append([r, w, 1])
        while len(blocks) > 1 and blocks[-2][0] < blocks[-1][0]:
            r2, w2, c2 = blocks.pop()
            r1, w1, c1 = blocks.pop()
            blocks.append([(r1 * w1 + r2 * w2) / (w1 + w2), w1 + w2, c1 + c2])
    return np.concatenate([np.full(c, r) for r, _, c in blocks])


def monotone(m: np.ndarray, u: np.ndarray, weights: np.ndarray, grid: tuple[int, int] | None = None) -> np.ndarray:
    """``m`` adjusted so that log(m/u) never rises from one level to the next (weighted pool-adjacent-
    violators over the levels' log ratios, weighted by how many pairs each level holds), renormalised.
    Similarity bands mean more the higher they are; EM on a few hundred correlated pairs can say
    otherwise by chance (a "partial" city match weighing more than an exact one).

    ``grid`` (rows, columns): the levels are a table (name level x cosine band, the last column
    "no vector" outside the order), non-increasing down each column and along each row."""
    ratio = np.log(m / u)
    if grid is None:
        ratio = _pava(ratio, weights)
    else:
        rows, cols = grid
        r, w = ratio.reshape(rows, cols).copy(), weights.reshape(rows, cols)
        for _ in range(3):  # alternate the two directions; a few rounds settle a small table
            for j in range(cols - 1):
                r[:, j] = _pava(r[:, j], w[:, j])
            for i in range(rows):
                r[i, :cols - 1] = _pava(r[i, :cols - 1], w[i, :cols - 1])
        ratio = r.reshape(-1)
    out = u * np.exp(ratio)
    return out / out.sum()


def _normalised(counts: np.ndarray, smoothing: float = SMOOTHING) -> np.ndarray:
    c = counts + smoothing
    return c / c.sum()


class Cells:
    """Term-frequency values by cell, (pair, comparison) -> value, read as a mapping's ``items()``:
    three parallel arrays, where a dict of ``(pair, comparison)`` keys costs about 60 bytes more a
    cell (the first pass of 1M generated mentions scores 5.9M pairs)."""

    def __init__(self) -> None:
        self.rows = array("q")
        self.cols = array("h")
        self.values: list[str] = []

    def add(self, row: int, col: int, value: str) -> None:
        self.rows.append(row)
        self.cols.append(col)
        self.values.append(value)

    def items(self) -> Iterator[tuple[tuple[int, int], str]]:
        return zip(zip(self.rows, self.cols), self.values)

    def window(self, lo: int, hi: int) -> "Cells":
        """The cells of pairs ``lo`` to ``hi`` (exclusive), numbered from ``lo``; cells are added in
        pair order."""
        start, end = bisect_left(self.rows, lo), bisect_left(self.rows, hi)
        out = Cells()
        out.rows = array("q", (r - lo for r in self.rows[start:end]))
        out.cols, out.values = self.cols[start:end], self.values[start:end]
        return out

    def __len__(self) -> int:
        return len(self.values)


def train(gamma: np.ndarray, comps: Sequence[Comparison], u_random: Sequence[np.ndarray],
          labels: np.ndarray | None = None, weights: np.ndarray | None = None, max_iterations: int = 200,
          tolerance: float = 1e-6, in_share: np.ndarray | None = None) -> MatchModel:
    """EM over candidate pairs (``gamma``: one row per pair; ``labels``: 1, 0, or nan where unknown).

    Maximum a posteriori: ``m`` starts from, and is drawn towards, each level's ``m_prior``, ``u``
    towards the level frequencies of all candidate pairs and random pairs (``u_random``: a level no
    candidate reached is still common by chance), the share of matches towards 0.2, each as
    much as :data:`PRIOR_PAIRS` (or :data:`PRIOR_SHARE_PAIRS`) pairs would: a graph of a few dozen
    pairs leans on them, one of thousands learns its own. Labelled rows keep their responsibility
    (1 or 0) through every iteration; ``weights`` (1 by default) say how many pairs each row counts
    as in ``m`` and ``u`` (each counts once in the share of matches); ``in_share`` (all by default)
    which rows the share of matches counts: rows that are not candidates the model will be asked
    about (pairs a constraint forbids) shape ``m`` and ``u`` but not the prior.
    """
    n, k = gamma.shape
    labels = np.full(n, np.nan) if labels is None else np.asarray(labels, dtype=np.float64)
    fixed = ~np.isnan(labels)
    pair_weight = np.ones(n) if weights is None else np.asarray(weights, dtype=np.float64)
    m_prior = [_normalised(np.array([lv.m_prior for lv in c.levels]), 0) for c in comps]
    u_prior = [_normalised(c + PRIOR_PAIRS * np.asarray(ur)) for c, ur in zip(level_counts(gamma, comps), u_random)]
    m = list(m_prior)
    u = [np.asarray(up) for up in u_prior]
    share = PRIOR_MATCH_SHARE
    iterations, converged = 0, False
    for iterations in range(1, max_iterations + 1):
        log_odds = np.full(n, math.log(share / (1 - share)))
        for j in range(k):
            # a null level (NULL = -1) reads the 0 appended last: it adds nothing (no mask of the pass's
            # every pair and comparison: 5.9M pairs in the first pass of 1M generated mentions)
            log_odds += np.append(np.log(m[j] / u[j]), 0.0)[gamma[:, j]]
        r = 1.0 / (1.0 + np.exp(-np.clip(log_odds, -60, 60)))
        r = np.where(fixed, labels, r)
        rw, nw = r * pair_weight, (1 - r) * pair_weight
        # the share of matches counts each candidate pair once: weighting labels shapes m and u only
        counted = r if in_share is None else r[in_share]
        new_share = float(np.clip((counted.sum() + PRIOR_MATCH_SHARE * PRIOR_SHARE_PAIRS)
                                  / (len(counted) + PRIOR_SHARE_PAIRS), 1e-6, 1 - 1e-6))
        new_m = [_normalised(c + PRIOR_PAIRS * mp) for c, mp in zip(level_counts(gamma, comps, rw), m_prior)]
        new_u = [_normalised(c + PRIOR_PAIRS * up) for c, up in zip(level_counts(gamma, comps, nw), u_prior)]
        totals = level_counts(gamma, comps, pair_weight)
        new_m = [monotone(mj, uj, tj, c.grid) if c.ordered else mj
                 for c, mj, uj, tj in zip(comps, new_m, new_u, totals)]
        delta = max([abs(new_share - share)] + [float(np.abs(a - b).max()) for a, b in zip(new_m + new_u, m + u)])
        m, u, share = new_m, new_u, new_share
        if delta < tolerance:
            converged = True
            break
    weights = [ComparisonWeights(name=c.name, kind=c.kind, levels=c.level_names(), m=[float(x) for x in mj],
                                 u=[float(x) for x in uj], u_random=[float(x) for x in ur],
                                 tf_levels=[i for i, lv in enumerate(c.levels) if lv.tf])
               for c, mj, uj, ur in zip(comps, m, u, u_random)]
    return MatchModel(comparisons=weights, prior=share, pairs=int(n), labels=int(fixed.sum()),
                      iterations=iterations, converged=converged)


def expected_quality(probabilities: np.ndarray, threshold: float) -> tuple[float, float]:
    """The model's own estimate of precision and recall of merging every pair at or above
    ``threshold``: mean probability above it, and the share of expected matches it holds."""
    above = probabilities >= threshold
    total = probabilities.sum()
    precision = float(probabilities[above].mean()) if above.any() else 1.0
    recall = float(probabilities[above].sum() / total) if total > 0 else 1.0
    return precision, recall


def auto_threshold(probabilities: np.ndarray, target_precision: float, floor: float) -> float:
    """The lowest probability threshold (at least ``floor``) whose auto band the model expects to be
    ``target_precision`` precise; ``floor`` when none is."""
    p = np.sort(probabilities)[::-1]
    if not len(p):
        return floor
    running = np.cumsum(p) / np.arange(1, len(p) + 1)
    ok = np.nonzero((running >= target_precision) & (p >= floor))[0]
    return float(max(floor, p[ok[-1]])) if len(ok) else 1.0
