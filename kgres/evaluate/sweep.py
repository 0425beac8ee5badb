"""``kgres eval clusters --sweep``: re-cluster a run's stored scored pairs (its first scored pass) at
thresholds from 0.60 to 1.00 (match probabilities for the default strategy, rule scores for
``rules``), without scoring anything again, and report the precision/recall curve and the *usable
window*: thresholds where precision >= 0.98 and recall is within 2 points of its best.
"""

from __future__ import annotations

import json
from collections import Counter

from pydantic import BaseModel

from kgres import runs
from kgres.db import Database
from kgres.errors import KgresError
from kgres.evaluate import metrics
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.cluster import ClusterConfig, cluster_rows, edge_components, groups_of, split_component
from kgres.resolve.pairs import PairContext
from kgres.resolve.score import PairScore, ScoreConfig, load_ambiguity
from kgres.resolve.score.stage import APART

THRESHOLDS = tuple(round(0.6 + 0.02 * i, 2) for i in range(21))
USABLE_PRECISION, USABLE_RECALL_SLACK = 0.98, 0.02


class SweepPoint(BaseModel):
    threshold: float
    p: float
    r: float
    f1: float


def latest_run(db: Database) -> str:
    rows = db.read("evaluate_latest_run")
    if not rows:
        raise KgresError("no finished default-strategy resolution run to sweep; run 'kgres resolve' first")
    return rows[0]["id"]


def threshold_sweep(db: Database, run_id: str, gold: dict[str, str],
                    thresholds: tuple[float, ...] = THRESHOLDS) -> list[SweepPoint]:
    """Precision/recall of re-clustering ``run_id``'s first-pass pairs at each threshold."""
    runs.get(db, run_id)
    cfg = json.loads(db.read("evaluate_run_config", run_id=run_id)[0]["config"] or "{}")
    cohesion = (cfg.get("cluster") or {}).get("cohesion", 0.8)
    max_component = (cfg.get("cluster") or {}).get("max_component", ClusterConfig().max_component)
    # With collapse, the run itself only merged identical-name copies (kept as they are) and its
    # first scored pass is "<run_id>.2": start from the graph that pass saw.
    collapsed = bool(cfg.get("collapse")) and cfg.get("mode", "merge") != "synonym"
    first = f"{run_id}.2" if collapsed else run_id
    before = {r["key"]: r["entity"]
              for r in db.stream("evaluate_before_run", run_id=run_id, include_self=not collapsed)}
    if cfg.get("strategy", "default") == "default":
        return _model_sweep(db, first, before, gold, thresholds, ClusterConfig.model_validate(cfg.get("cluster") or {}))
    mentions = Counter(before.values())
    stored = {}
    for r in _pairs(db, first):
        signals = json.loads(r["signals"] or "{}")
        known = signals.get("name_rule") != "disjoint" and "ambiguous_name" not in signals
        stored[(r["a"], r["b"])] = (r["score"], signals.get("cannot_link"), known)
    ambiguity = load_ambiguity(db)
    points = []
    for t in thresholds:
        assign = _recluster(db, stored, mentions, t, cohesion, max_component, ambiguity)
        pred = {k: assign.get(e, e) for k, e in before.items()}
        s = metrics.pairwise(pred, gold)
        points.append(SweepPoint(threshold=t, p=round(s["p"], 4), r=round(s["r"], 4), f1=round(s["f1"], 4)))
    return points


def _pairs(db: Database, run_id: str) -> list[dict]:
    """The scored pairs of ``run_id`` in id order (clustering meets ties in the order it is given
    them; the edges' own order is the order their write transactions committed in)."""
    return sorted(db.stream("evaluate_run_pairs", run_id=run_id), key=lambda r: (r["a"], r["b"]))


def _model_sweep(db: Database, run_id: str, before: dict[str, str], gold: dict[str, str],
                 thresholds: tuple[float, ...], cfg: ClusterConfig) -> list[SweepPoint]:
    """The default strategy's sweep: its stored pairs re-banded at each probability threshold (pairs
    a constraint forbids, or whose names say too little, stay out of the auto band as in the run) and
    clustered again in one pass."""
    rows = []
    for r in _pairs(db, run_id):
        signals = json.loads(r["signals"] or "{}")  # none on a reject: its name rule and veto are the edge's
        rows.append({"a": r["a"], "b": r["b"], "p": r["score"], "name_rule": r["name_rule"],
                     "vetoed": bool(r["cannot_link"]), "capped": bool(signals.get("capped")),
                     "apart": signals.get("capped") == APART,
                     "signals": r["signals"]})
    points = []
    for t in thresholds:
        banded = [{**r, "band": "auto" if r["p"] >= t and not r["capped"] else "review"} for r in rows]
        groups, _ = cluster_rows(db, banded, cfg, sides_query="evaluate_cluster_sides")
        assign = {m: g.canonical for g in groups for m in g.members}
        pred = {k: assign.get(e, e) for k, e in before.items()}
        s = metrics.pairwise(pred, gold)
        points.append(SweepPoint(threshold=t, p=round(s["p"], 4), r=round(s["r"], 4), f1=round(s["f1"], 4)))
    return points


def _recluster(db: Database, stored: dict, mentions: Counter, t: float, cohesion: float, max_component: int,
               ambiguity: Ambiguity) -> dict[str, str]:
    """entity -> group label: the run's clustering redone with the auto threshold at ``t``.

    Stored pairs keep their score; any other two members of a component are compared on their names
    alone (the vetoes: given names, numbers, gender...), as ``cluster`` does. The cohesion bar
    follows the threshold down (a group of 0.7 links cannot average 0.8).
    """
    review = min(0.6, round(t - 0.01, 2))
    cfg = ScoreConfig(auto_threshold=t, review_threshold=review)
    edges = [(a, b, s) for (a, b), (s, veto, _) in stored.items() if s >= t and not veto]
    out: dict[str, str] = {}
    for component in edge_components(edges):
        for piece in split_component(component, edges, t, max_component):
            ctx = PairContext.load(db, [piece], cfg, ambiguity, members="evaluate_entity_keys")

            def raw(x: str, y: str) -> PairScore:
                hit = stored.get((x, y)) or stored.get((y, x))
                if hit is None:
                    return ctx.compare(x, y)
                s, veto, known = hit
                band = "auto" if s >= t and not veto else "review" if s >= review else "reject"
                return PairScore(score=s, band=band, known=known or bool(veto), cannot_link=veto)

            ids = [i for i in piece if i in ctx.sides]
            counts = {i: mentions.get(i, 1) for i in ids}
            for g in groups_of(ctx, ids, raw, t, min(cohesion, t), mentions=counts):
                for m in g.members:
                    out[m] = g.canonical
    return out


def usable_window(points: list[SweepPoint]) -> tuple[float, float] | None:
    """Lowest and highest threshold with precision >= 0.98 and recall within 2 points of the best."""
    if not points:
        return None
    best = max(p.r for p in points)
    ok = [p.threshold for p in points if p.p >= USABLE_PRECISION and p.r >= best - USABLE_RECALL_SLACK]
    return (min(ok), max(ok)) if ok else None


