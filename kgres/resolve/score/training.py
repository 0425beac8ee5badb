"""What the match model learns from, besides the candidate pairs: a sample of the graph.

- :func:`sample`: a deterministic pseudo-random sample of entities (all of a small graph);
- :func:`attribute_spec`: which attribute keys the graph carries, and how each compares;
- :func:`chance`: ``u_random`` (level frequencies over random pairs of sampled entities) and the
  term frequencies of names and attribute values;
- :func:`labelled` / :func:`record_label`: the pairs people and the judge decided, kept with the
  levels they had then, so that a decision keeps teaching after the pair is merged or split.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database
from kgres.db.vectors import unpacked
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.score.identifiers import IDENTIFIER_KEYS
from kgres.resolve.score.levels import (NULL, Comparison, PairFrame, TokenWeights, attribute_kind, normalise_value,
                                        vectors)
from kgres.resolve.score.model import SMOOTHING, chance_of, level_counts
from kgres.resolve.score.sides import Side


class ModelConfig(BaseModel):
    """``[resolve.model]``: how the match model is trained and how its probabilities become bands."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # auto: train on each resolve unless a pinned model (kgres model train / import) fits the graph;
    # always: train on each resolve; never: use the pinned model (an error without one)
    train: Literal["auto", "always", "never"] = "auto"
    target_precision: float = Field(0.99, gt=0.5, le=1)  # expected precision of the auto band
    auto_floor: float = Field(0.9, ge=0.5, le=1)  # no pair merges below this probability
    # ... and the band starts no higher than this: on small graphs the model under-states (it had
    # few pairs to learn from), and a pair 90% likely the same thing merges
    auto_ceiling: float = Field(0.9, ge=0.5, le=1)
    # pairs whose names share no word, or only common ones, merge only when their texts embed alike
    # (cosine >= 0.9): otherwise they wait in review, however much else agrees (songs of one album)
    name_required: bool = True
    review_probability: float = Field(0.1, ge=0, lt=1)  # at or above: review band; below: reject
    # whose chance agreement probabilities discount: the candidate pairs' own (learned with m by EM), or
    # random pairs' (Splink's choice); auto: the candidates' once there are min_pairs of them to learn
    # from, random pairs' below (a small graph's few candidates cannot say what chance looks like)
    u_source: Literal["auto", "candidates", "random"] = "auto"
    min_pairs: int = Field(2000, ge=0)
    sample_entities: int = Field(4000, ge=10, le=1_000_000)
    random_pairs: int = Field(50_000, ge=100, le=10_000_000)
    label_weight: float = Field(5.0, gt=0, le=1000)  # a decided pair counts as this many candidate pairs
    max_attributes: int = Field(24, ge=0, le=200)
    min_attribute_share: float = Field(0.01, ge=0, le=1)  # of sampled entities carrying a key
    max_iterations: int = Field(200, ge=1, le=10_000)
    seed: int = 42


CHANCE_PRIOR_PAIRS = 10_000.0


@dataclass
class Sample:
    """Sampled entities as sides, with their text and context embeddings (rows of zeros where missing)."""

    sides: list[Side]
    embedding: np.ndarray | None
    context: np.ndarray | None
    entities: int  # entities in the graph

    def __len__(self) -> int:
        return len(self.sides)


def sample(db: Database, cfg: ModelConfig) -> Sample:
    rows = [r["e"] for r in db.read("resolve_model_sample", _plain=True, limit=cfg.sample_entities, seed=str(cfg.seed))]
    sides = [Side.from_row({**r, "neighbours": [n for n, _ in r.get("nbrs") or ()],
                            "typed_neighbours": [t for _, t in r.get("nbrs") or ()]}) for r in rows]
    return Sample(sides=sides, embedding=_matrix([unpacked(r.get("embedding")) for r in rows]),
                  context=_matrix([unpacked(r.get("context_embedding")) for r in rows]), entities=db.count("Entity"))


def _matrix(vectors_: list[np.ndarray | None]) -> np.ndarray | None:
    dims = next((len(v) for v in vectors_ if v is not None and len(v)), 0)
    if not dims:
        return None
    out = np.zeros((len(vectors_), dims), dtype=np.float32)
    for i, v in enumerate(vectors_):
        if v is not None and len(v):
            out[i] = v
    return out


def attribute_spec(s: Sample, cfg: ModelConfig) -> list[tuple[str, str]]:
    """(key, kind) of the attribute keys at least ``min_attribute_share`` of the sampled entities carry
    (and at least two of them), most common first, at most ``max_attributes``."""
    carriers: Counter[str] = Counter()
    values: dict[str, list[str]] = {}
    for side in s.sides:
        for key in {k for k, _ in side.attributes}:
            carriers[key] += 1
        for k, v in side.attributes:
            values.setdefault(k, []).append(v)
    floor = max(2, cfg.min_attribute_share * len(s))
    keys = [k for k, n in sorted(carriers.items(), key=lambda t: (-t[1], t[0])) if n >= floor]
    return [(k, "code" if k in IDENTIFIER_KEYS else attribute_kind(values[k])) for k in keys[:cfg.max_attributes]]


def token_weights(s: Sample, keep: int = 20_000) -> TokenWeights:
    """log((N + 1) / (df + 1)) of the name words the sampled entities share (df: entities whose names
    hold the word), the ``keep`` commonest kept; a word seen once weighs the default."""
    df: Counter[str] = Counter()
    for side in s.sides:
        df.update({w for name in side.names() for w in name.tokens})
    n = len(s)
    common = [(w, c) for w, c in df.most_common(keep) if c >= 2]
    return TokenWeights({w: math.log((n + 1) / (c + 1)) for w, c in common}, default=math.log((n + 1) / 2))


COSINE_ROWS = 4096  # random pairs whose cosines are computed together


def random_frame(s: Sample, pairs: int, seed: int, ambiguity: Ambiguity | None,
                 tokens: TokenWeights | None = None) -> PairFrame:
    """Random pairs of distinct sampled entities (all pairs of a small sample) as a frame."""
    n = len(s)
    rng = np.random.default_rng(seed)
    if n * (n - 1) // 2 <= pairs:
        i, j = np.triu_indices(n, k=1)
    else:
        i, j = rng.integers(0, n, size=pairs), rng.integers(0, n, size=pairs)
        keep = i != j
        i, j = i[keep], j[keep]

    def cosines(m: np.ndarray | None) -> np.ndarray:
        if m is None:
            return np.full(len(i), np.nan)
        norms = np.linalg.norm(m, axis=1)
        # a few thousand pairs' rows at a time: the same sums, without three arrays of every pair's
        # vectors (50,000 pairs of 384 floats: 150 MB each, 0.25-2.6 s against 0.04 s)
        dots = np.concatenate([(m[i[k:k + COSINE_ROWS]] * m[j[k:k + COSINE_ROWS]]).sum(axis=1)
                               for k in range(0, len(i), COSINE_ROWS)] or [np.zeros(0)])
        cos = dots / np.maximum(norms[i] * norms[j], 1e-12)
        return np.where((norms[i] > 0) & (norms[j] > 0), cos, np.nan)

    frame = PairFrame.of([(s.sides[a], s.sides[b]) for a, b in zip(i, j)], ambiguity=ambiguity, tokens=tokens)
    frame.ego, frame.neighbour = cosines(s.embedding), cosines(s.context)
    return frame


def chance(s: Sample, comps: Sequence[Comparison], cfg: ModelConfig, ambiguity: Ambiguity | None,
           tokens: TokenWeights | None = None
           ) -> tuple[list[np.ndarray], dict[str, tuple[dict[str, float], float, int]]]:
    """``u_random`` per comparison, and term frequencies per TF-adjusted comparison:
    {comparison: ({value: share of the sample's carriers}, :func:`tf_baseline`, carriers counted)}."""
    frame = random_frame(s, cfg.random_pairs, cfg.seed, ambiguity, tokens)
    gamma = vectors(frame, comps)
    # The declared chance rates (each level's u_prior) weigh as CHANCE_PRIOR_PAIRS random pairs: a
    # small graph has too few pairs to say what chance agreement looks like (six entities make fifteen
    # pairs, and when they are one person's variants, its random pairs are matches), a large one's
    # 50,000 random pairs say it themselves.
    u_random = []
    for c, counts in zip(comps, level_counts(gamma, comps)):
        prior = np.array([lv.u_prior for lv in c.levels])
        u = counts + CHANCE_PRIOR_PAIRS * prior / prior.sum() + SMOOTHING
        u_random.append(u / u.sum())
    tf: dict[str, tuple[dict[str, float], float]] = {}
    for c in comps:
        if not any(lv.tf for lv in c.levels):
            continue
        if c.name == "name":
            counts = Counter(side.core for side in s.sides if side.core)
        else:
            key = c.name.split(":", 1)[1]
            counts = Counter(v for side in s.sides
                             for v in {normalise_value(c.kind, x) for k, x in side.attributes if k == key} if v)
        total = sum(counts.values())
        if total:
            tf[c.name] = ({v: n / total for v, n in counts.items()}, tf_baseline(counts), total)
    return u_random, tf


def tf_baseline(counts: Counter) -> float:
    """How likely, on average over the pairs that agree on a value, another entity is to carry
    that value (:func:`~kgres.resolve.score.model.chance_of`). Term-frequency factors are relative to
    it. The sum of squared shares this replaces counted every value against itself: where only a
    record and its duplicate share a title (DBLP), the title of every true pair weighed -0.5 to -1 bit."""
    total = sum(counts.values())
    chance = {v: chance_of(n, total) for v, n in counts.items() if n > 1}
    agree = sum(counts[v] * x for v, x in chance.items())
    return sum(counts[v] * x * x for v, x in chance.items()) / agree if agree else 0.0


def labelled(db: Database, comps: Sequence[Comparison], limit: int = 100_000) -> tuple[np.ndarray, np.ndarray]:
    """The decided pairs as comparison vectors (levels by name; comparisons the pair was not
    compared on are null) and their labels (1 same, 0 different)."""
    rows = db.read("resolve_model_labels", limit=limit)
    gamma = np.full((len(rows), len(comps)), NULL, dtype=np.int8)
    labels = np.zeros(len(rows))
    for i, r in enumerate(rows):
        levels = json.loads(r["levels_json"] or "{}")
        for k, c in enumerate(comps):
            names = c.level_names()
            if levels.get(c.name) in names:
                gamma[i, k] = names.index(levels[c.name])
        labels[i] = 1.0 if r["label"] else 0.0
    return gamma, labels


def record_label(db: Database, a: str, b: str, same: bool, levels: dict[str, Any], decided_by: str) -> None:
    """Keep a decision as a training label, with the levels the pair had when it was decided."""
    x, y = sorted((a, b))
    db.write("resolve_model_label", a=x, b=y, label=same, levels_json=json.dumps(levels, sort_keys=True),
             decided_by=decided_by)
