"""``kgres eval``: how good is the current resolution, against gold; and do question chains connect?

``clusters``: gold is JSONL ``{"mention_id", "cluster"}`` or CSV ``id_a,id_b,label`` (label 1/0,
true/false or same/different). Mention ids are the ids the input gave (``source_key``). Reports
pairwise, B-cubed and CESI macro/micro scores, false and missed merges with examples, and slices by
mention type and by name frequency. With CSV pairs the pairwise scores count only the listed pairs,
and cluster scores use the clusters the positive pairs imply.

``sweep``: re-clusters a run's stored scored pairs (its first pass) at thresholds from 0.60 to 1.00,
without scoring anything again, and reports the precision/recall curve and the *usable window*:
thresholds where precision >= 0.98 and recall is within 2 points of its best.

``paths``: each question is a chain of entity names (question -> bridge -> answer); a chain holds
when each consecutive pair is directly related, through the same node for each name. Counted on the
mention layer (``RELATES``, before resolution) and on the entity layer (``RELATED``, after).
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from kgres import metrics
from kgres.ambiguity import Ambiguity
from kgres.cluster import UnionFind
from kgres.db import Database
from kgres.errors import InputError, KgresError
from kgres.normalize import norm_type
from kgres.resolve import edge_components, groups_of, split_component
from kgres.score import PairScore, ScoreConfig, Side, compare, load_ambiguity

THRESHOLDS = tuple(round(0.6 + 0.02 * i, 2) for i in range(21))
USABLE_PRECISION, USABLE_RECALL_SLACK = 0.98, 0.02


class Gold(BaseModel):
    clusters: dict[str, str]                      # mention id -> gold cluster
    pairs: list[tuple[str, str, bool]] | None = None  # CSV gold: the labelled pairs


def load_gold(path: Path) -> Gold:
    """Read gold from JSONL clusters or CSV pairs (by extension; ``.csv`` means pairs).

    Raises:
        InputError: unreadable, malformed, or empty of labels; names the file, line and field.
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read gold file: {e.strerror}", path=path) from e
    return _gold_pairs(path, text) if str(path).lower().endswith(".csv") else _gold_clusters(path, text)


def _jsonl(path: Path, text: str):
    """(line number, parsed value) for each non-blank line; InputError naming the line otherwise."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield n, json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"not JSON: {e.msg}", path=path, line=n) from e


def read_jsonl(path: Path, what: str):
    """(line number, parsed value) for each non-blank line of the file ``path`` (``what`` names it
    in errors: "questions file"); InputError for an unreadable file or a line that is not JSON."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read {what}: {e.strerror}", path=path) from e
    return _jsonl(path, text)


def _gold_clusters(path: Path, text: str) -> Gold:
    clusters: dict[str, str] = {}
    for n, row in _jsonl(path, text):
        if not isinstance(row, dict):
            raise InputError("expected an object {\"mention_id\", \"cluster\"}", path=path, line=n)
        for field in ("mention_id", "cluster"):
            if not isinstance(row.get(field), (str, int)) or isinstance(row.get(field), bool):
                raise InputError("missing or not a string", path=path, line=n, field=field)
        clusters[str(row["mention_id"])] = str(row["cluster"])
    return Gold(clusters=clusters)


LABELS = {"1": True, "true": True, "same": True, "yes": True, "0": False, "false": False, "different": False,
          "no": False}


def _gold_pairs(path: Path, text: str) -> Gold:
    pairs, uf = [], UnionFind()
    reader = csv.reader(text.splitlines())
    for n, row in enumerate(reader, 1):
        if not row or (n == 1 and [c.strip().lower() for c in row[:3]] == ["id_a", "id_b", "label"]):
            continue
        if len(row) < 3:
            raise InputError(f"expected id_a,id_b,label, got {len(row)} column(s)", path=path, line=n)
        label = LABELS.get(row[2].strip().lower())
        if label is None:
            raise InputError(f"label '{row[2]}' is not 1/0, true/false or same/different", path=path, line=n,
                             field="label")
        a, b = row[0].strip(), row[1].strip()
        pairs.append((a, b, label))
        uf.find(a), uf.find(b)
        if label:
            uf.union(a, b)
    return Gold(clusters={x: uf.find(x) for x in uf.parent}, pairs=pairs)


class Slice(BaseModel):
    items: int
    pair_p: float
    pair_r: float
    pair_f1: float


class Example(BaseModel):
    entity_id: str | None = None
    names: list[list[str]]  # one list of mention names per gold cluster (false merge) or piece (missed)


class SweepPoint(BaseModel):
    threshold: float
    p: float
    r: float
    f1: float


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
    info = {r["key"]: r for r in db.stream("eval_mentions")}
    pred = {k: r["entity"] for k, r in info.items()}
    if same_as:
        uf = UnionFind()
        for r in db.stream("export_same_as"):
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
        run = run_id or _latest_run(db)
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


def _latest_run(db: Database) -> str:
    rows = db.query("eval_latest_run")
    if not rows:
        raise KgresError("no finished default-strategy resolution run to sweep; run 'kgres resolve' first")
    return rows[0]["id"]


def threshold_sweep(db: Database, run_id: str, gold: dict[str, str],
                    thresholds: tuple[float, ...] = THRESHOLDS) -> list[SweepPoint]:
    """Precision/recall of re-clustering ``run_id``'s first-pass pairs at each threshold."""
    run = db.query("run_get", run_id=run_id)
    if not run:
        raise KgresError(f"no resolution run '{run_id}'")
    cfg = json.loads(db.query("eval_run_config", run_id=run_id)[0]["config"] or "{}")
    cohesion = (cfg.get("cluster") or {}).get("cohesion", 0.8)
    # With collapse, the run itself only merged identical-name copies (kept as they are) and its
    # first scored pass is "<run_id>.2": start from the graph that pass saw.
    collapsed = bool(cfg.get("collapse")) and cfg.get("mode", "merge") != "synonym"
    first = f"{run_id}.2" if collapsed else run_id
    before = {r["key"]: r["entity"] for r in db.stream("eval_before_run", run_id=run_id, include_self=not collapsed)}
    mentions = Counter(before.values())
    stored = {}
    for r in db.stream("eval_run_pairs", run_id=first):
        signals = json.loads(r["signals"] or "{}")
        known = signals.get("name_rule") != "disjoint" and "ambiguous_name" not in signals
        stored[(r["a"], r["b"])] = (r["score"], signals.get("cannot_link"), known)
    ambiguity = load_ambiguity(db)
    points = []
    for t in thresholds:
        assign = _recluster(db, stored, mentions, t, cohesion, ambiguity)
        pred = {k: assign.get(e, e) for k, e in before.items()}
        s = metrics.pairwise(pred, gold)
        points.append(SweepPoint(threshold=t, p=round(s["p"], 4), r=round(s["r"], 4), f1=round(s["f1"], 4)))
    return points


def _recluster(db: Database, stored: dict, mentions: Counter, t: float, cohesion: float,
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
        for piece in split_component(component, edges, t, 300):
            rows = {r["e"]["id"]: r["e"] for r in db.query("eval_entity_keys", ids=piece)}
            sides = {i: Side.from_row(r) for i, r in rows.items()}

            def raw(x: str, y: str) -> PairScore:
                hit = stored.get((x, y)) or stored.get((y, x))
                if hit is None:
                    return compare(sides[x], sides[y], cfg, ambiguity=ambiguity)
                s, veto, known = hit
                band = "auto" if s >= t and not veto else "review" if s >= review else "reject"
                return PairScore(score=s, band=band, known=known or bool(veto), cannot_link=veto)

            names = {i: r.get("name") or "" for i, r in rows.items()}
            counts = {i: mentions.get(i, 1) for i in sides}
            for g in groups_of(sides, raw, counts, names, t, min(cohesion, t)):
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


class PathEval(BaseModel):
    questions: int
    before: float  # share of chains with a path in the mention layer
    after: float   # ... in the entity layer
    results: list[dict[str, Any]]


def load_questions(path: Path) -> list[dict[str, Any]]:
    """JSONL lines ``{"id"?, "question"?, "chain": [name, name, ...]}`` (two names or more)."""
    out = []
    for n, row in read_jsonl(path, "questions file"):
        chain = row.get("chain") if isinstance(row, dict) else None
        if not isinstance(chain, list) or len(chain) < 2 or not all(isinstance(c, str) and c for c in chain):
            raise InputError("chain must be a list of two or more names", path=path, line=n, field="chain")
        out.append({"id": str(row.get("id", n)), "question": row.get("question"), "chain": chain})
    return out


def paths(db: Database, questions: list[dict[str, Any]]) -> PathEval:
    """For each chain: does it connect in the mention layer (before) and the entity layer (after)?"""
    results = []
    for q in questions:
        results.append({**q, "before": _chain(db, "mentions", q["chain"]), "after": _chain(db, "entities", q["chain"])})
    n = len(results)
    return PathEval(questions=n, before=sum(r["before"] for r in results) / n if n else 0.0,
                    after=sum(r["after"] for r in results) / n if n else 0.0, results=results)


def _chain(db: Database, layer: str, chain: list[str]) -> bool:
    frontier: list[str] | None = None
    for name in chain:
        frontier = [r["id"] for r in db.query(f"eval_path_step_{layer}", target=name, frm=frontier)]
        if not frontier:
            return False
    return True
