"""``kgres eval clusters``: how good is the current resolution, against gold.

Mention ids are the ids the input gave (``source_key``). Reports pairwise, B-cubed and CESI
macro/micro scores, false and missed merges with examples, and slices by mention type and by name
frequency. With CSV pairs the pairwise scores count only the listed pairs, and cluster scores use the
clusters the positive pairs imply. ``sweep`` adds :mod:`kgres.evaluate.sweep`'s curve.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel

from kgres.db import Database
from kgres.evaluate import metrics
from kgres.evaluate.gold import Gold
from kgres.evaluate.sweep import SweepPoint, latest_run, threshold_sweep, usable_window
from kgres.resolve.cluster import UnionFind
from kgres.resolve.normalize import norm_type


class Slice(BaseModel):
    items: int
    pair_p: float
    pair_r: float
    pair_f1: float


class Example(BaseModel):
    entity_id: str | None = None
    names: list[list[str]]  # one list of mention names per gold cluster (false merge) or piece (missed)


class ClusterEval(BaseModel):
    items: int
    gold_clusters: int
    predicted_clusters: int
    pairwise: dict[str, float]
    bcubed: dict[str, float]
    cesi: dict[str, float]
    false_merge_examples: list[Example]
    missed_merge_examples: list[Example]
    by_type: dict[str, Slice]
    by_name_frequency: dict[str, Slice]
    sweep_run: str | None = None
    sweep: list[SweepPoint] | None = None
    usable_window: tuple[float, float] | None = None


def clusters(db: Database, gold: Gold, same_as: bool = False, examples: int = 5, sweep: bool = False,
             run_id: str | None = None) -> ClusterEval:
    """Score the current resolution (mention -> entity) against ``gold`` (see module docstring)."""
    info = {r["key"]: r for r in db.stream("evaluate_mentions")}
    pred = {k: r["entity"] for k, r in info.items()}
    if same_as:
        uf = UnionFind()
        for r in db.stream("curate_export_same_as"):
            uf.union(r["a"], r["b"])
        pred = {k: uf.find(e) if e in uf.parent else e for k, e in pred.items()}
    g = {k: c for k, c in gold.clusters.items() if k in pred}
    pw = _pairs_score(pred, gold.pairs) if gold.pairs is not None else metrics.pairwise(pred, g)
    freq = Counter(r["name"] for r in info.values())
    by_type = _slices(pred, g, lambda k: norm_type(info[k]["type"]) or "(none)")
    by_freq = _slices(pred, g, lambda k: _bucket(freq[info[k]["name"]]))
    out = ClusterEval(
        items=len(g), gold_clusters=len(set(g.values())), predicted_clusters=len({pred[k] for k in g}),
        pairwise=pw, bcubed=metrics.bcubed(pred, g), cesi=metrics.cesi(pred, g),
        false_merge_examples=_false_merges(pred, g, info, examples),
        missed_merge_examples=_missed(pred, g, info, examples), by_type=by_type, by_name_frequency=by_freq)
    if sweep:
        run = run_id or latest_run(db)
        points = threshold_sweep(db, run, g)
        out.sweep_run, out.sweep, out.usable_window = run, points, usable_window(points)
    return out


def _pairs_score(pred: dict[str, str], pairs: list[tuple[str, str, bool]]) -> dict[str, float]:
    known = [(a, b, y) for a, b, y in pairs if a in pred and b in pred]
    tp = sum(1 for a, b, y in known if y and pred[a] == pred[b])
    fp = sum(1 for a, b, y in known if not y and pred[a] == pred[b])
    pos = sum(1 for *_, y in known if y)
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / pos if pos else 1.0
    return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "false_merges": fp, "missed": pos - tp}


def _bucket(n: int) -> str:
    return "1" if n == 1 else "2-4" if n < 5 else "5+"


def _slices(pred: dict[str, str], gold: dict[str, str], key) -> dict[str, Slice]:
    groups: dict[str, list[str]] = {}
    for k in gold:
        groups.setdefault(key(k), []).append(k)
    out = {}
    for name, ks in sorted(groups.items()):
        sub = {k: gold[k] for k in ks}
        s = metrics.pairwise(pred, sub)
        out[name] = Slice(items=len(ks), pair_p=s["p"], pair_r=s["r"], pair_f1=s["f1"])
    return out


def _false_merges(pred, gold, info, limit: int) -> list[Example]:
    by_entity: dict[str, dict[str, list[str]]] = {}
    for k, c in gold.items():
        by_entity.setdefault(pred[k], {}).setdefault(c, []).append(info[k]["name"])
    bad = [(e, parts) for e, parts in by_entity.items() if len(parts) > 1]
    bad.sort(key=lambda t: (-sum(len(v) for v in t[1].values()), t[0]))
    return [Example(entity_id=e, names=[sorted(set(v)) for _, v in sorted(parts.items())]) for e, parts in bad[:limit]]


def _missed(pred, gold, info, limit: int) -> list[Example]:
    by_gold: dict[str, dict[str, list[str]]] = {}
    for k, c in gold.items():
        by_gold.setdefault(c, {}).setdefault(pred[k], []).append(info[k]["name"])
    bad = [(c, parts) for c, parts in by_gold.items() if len(parts) > 1]
    bad.sort(key=lambda t: (-len(t[1]), t[0]))
    return [Example(names=[sorted(set(v)) for _, v in sorted(parts.items())]) for _, parts in bad[:limit]]


