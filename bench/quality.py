"""Resolution quality on every development set of ../shared/data, kgres next to the alternatives.

    python bench/quality.py [--sets cesi-base,febrl3,...] [--strategies default,rules,cosine,exact] [--splink]

For each set (see bench/datasets.py) and strategy: ingest it into a fresh database, run the strategy as
a real ``kgres resolve`` run, read the clusters back, and score. Each strategy starts from a fresh
ingest, not from the rollback of the one before: the vector index answers nearest-neighbour queries
approximately, and the order entities entered it changes which of many identical copies it returns
(cesi-base's cosine links recalled .98 of the pairs from a fresh ingest, .90 after ``default``,
``rules`` and ``exact`` were rolled back, and .82 when ``default`` had merged two other phrases).

- cluster gold (CESI, FEBRL, fake_1000): pairwise precision / recall / F1 and B-cubed F1 over the
  mentions with gold;
- labelled pairs (Magellan): precision / recall / F1 over the labelled test pairs;
- story graphs (the two Christmas Carols): hard negatives kept apart, and known variants joined.

``cosine`` is HippoRAG's SAME_AS links, scored at its best threshold on the set (0.80 ... 0.99, the
best F1 at precision >= 0.97 if any reaches it, else the best F1): an oracle choice the other
strategies do not get. ``splink`` (with ``--splink``, tabular sets only, needs the ``bench`` extra)
runs Splink 4 with settings from its own documentation. Rows print as they finish.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import datasets  # noqa: E402
from bench.common import bench_database, print_table  # noqa: E402
from bench.compare import cosine_threshold_clusters  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.curate import export  # noqa: E402
from kgres.db import Database  # noqa: E402
from kgres.evaluate.metrics import bcubed, pairwise  # noqa: E402
from kgres.resolve import ResolveConfig, merge, resolve  # noqa: E402

HEADER = ["set", "strategy", "P", "R", "F1", "B3 F1", "false merges", "note", "seconds"]
STORY_HEADER = ["set", "strategy", "negatives apart", "variants joined", "entities", "seconds"]
MIN_PRECISION = 0.97


def score(d: datasets.Dataset, pred: dict[str, str]) -> dict[str, float]:
    """P, R, F1 (and B-cubed F1 for cluster gold) of predicted clusters {mention id: cluster}."""
    if d.pairs is not None:
        known = [(a, b, y) for a, b, y in d.pairs if a in pred and b in pred]
        tp = sum(1 for a, b, y in known if y and pred[a] == pred[b])
        fp = sum(1 for a, b, y in known if not y and pred[a] == pred[b])
        pos = sum(1 for *_, y in known if y)
        p = tp / (tp + fp) if tp + fp else 1.0
        r = tp / pos if pos else 1.0
        return {"p": p, "r": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "b3": float("nan"), "fp": fp}
    gold = {k: c for k, c in (d.clusters or {}).items() if d.scored is None or k in d.scored}
    pw, b3 = pairwise(pred, gold), bcubed(pred, gold)
    return {"p": pw["p"], "r": pw["r"], "f1": pw["f1"], "b3": b3["f1"], "fp": pw["false_merges"]}


def story(db: Database, d: datasets.Dataset) -> tuple[int, int, int, int]:
    """(negatives kept apart, negatives present, variants joined, variants present)."""
    entity_of: dict[str, set[str]] = {}
    for r in db.stream("evaluate_mentions"):
        name = (r["name"] or "").strip().strip('"').upper()
        entity_of.setdefault(name, set()).add(r["entity"])
    present = lambda pairs: [(a, b) for a, b in pairs if a in entity_of and b in entity_of]  # noqa: E731
    neg, var = present(d.negatives), present(d.variants)
    apart = sum(1 for a, b in neg if not entity_of[a] & entity_of[b])
    joined = sum(1 for a, b in var if entity_of[a] & entity_of[b])
    return apart, len(neg), joined, len(var)


def fresh(db: Database, d: datasets.Dataset, tmp: Path) -> None:
    """An empty database holding ``d`` alone, its vector index rebuilt empty (a deleted entity stays in
    it, a node of its search graph, until Lucene merges it away)."""
    from kgres import schema
    from kgres.config import load_settings
    from kgres.resolve.embed import reindex

    schema.reset(db)
    schema.init(db, load_settings().schema_)
    reindex(db)
    if d.kind == "story":
        ingest.ingest(db, d.fmt, d.path, source=d.name)
    else:
        path = tmp / f"{d.name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in d.records))
        ingest.ingest(db, "jsonl", path, source=d.name)


def run_strategy(db: Database, d: datasets.Dataset, strategy: str, log: Callable[[str], None]) -> tuple[list, dict]:
    """One resolve run: its table row, and its clusters (cosine: at every swept threshold)."""
    t = time.perf_counter()
    stats = resolve(db, ResolveConfig(strategy=strategy), on_step=lambda m: log(f"      {m}"))
    secs = round(time.perf_counter() - t, 1)
    if d.kind == "story":
        apart, neg, joined, var = story(db, d)
        merge.rollback(db, stats.run_id)
        return [d.name, strategy, f"{apart}/{neg}", f"{joined}/{var}", stats.entities_after, secs], {}
    pred = {k: row["entity_id"] for row in export.clusters(db, same_as=True) for k in row["mention_ids"]}
    sweeps = cosine_threshold_clusters(db, stats.run_id) if strategy == "cosine" else {}
    merge.rollback(db, stats.run_id)
    note = ""
    if strategy == "cosine":
        scored = {t: score(d, c) for t, c in sweeps.items()}
        good = [t for t, s in scored.items() if s["p"] >= MIN_PRECISION]
        best = max(good or scored, key=lambda t: (scored[t]["f1"], t))
        pred, note = sweeps[best], f"threshold {best}"
    elif strategy == "default" and stats.auto_threshold is not None:
        note = (f"auto >= {stats.auto_threshold:.3f}; expects P {stats.expected_precision:.2f}"
                f" R {stats.expected_recall:.2f}")
    s = score(d, pred)
    return [d.name, strategy, s["p"], s["r"], s["f1"], s["b3"], s["fp"], note, secs], pred


def splink_row(d: datasets.Dataset) -> list | None:
    """Splink on the same records (tabular sets), or None when it is not installed or does not apply."""
    import importlib.util

    if importlib.util.find_spec("splink") is None:
        print("splink is not installed: pip install -e '.[bench]'", file=sys.stderr)
        return None
    from bench.splink_baseline import THRESHOLD as splink_threshold
    from bench.splink_baseline import run as splink

    out = splink(d)
    if out is None:
        return None
    pred, secs = out
    s = score(d, pred)
    return [d.name, "splink", s["p"], s["r"], s["f1"], s["b3"], s["fp"], f"clusters at p >= {splink_threshold}",
            round(secs, 1)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=",".join(datasets.LOADERS))
    ap.add_argument("--strategies", default="default,rules,cosine,exact")
    ap.add_argument("--splink", action="store_true", help="Also run Splink on the tabular sets.")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    log = (lambda m: None) if args.quiet else (lambda m: print(m, file=sys.stderr, flush=True))
    rows, story_rows = [], []
    with bench_database(heap="3g") as db, tempfile.TemporaryDirectory() as tmp:
        for name in args.sets.split(","):
            d = datasets.load(name)
            for strategy in args.strategies.split(","):
                log(f"{name}: ingesting")
                fresh(db, d, Path(tmp))
                log(f"  {name}: {strategy}")
                row, _ = run_strategy(db, d, strategy, log)
                (story_rows if d.kind == "story" else rows).append(row)
                log(f"    {row}")
            if args.splink and d.kind == "records":
                row = splink_row(d)
                if row:
                    rows.append(row)
                    log(f"    {row}")
    print_table("pairwise precision / recall / F1 against gold", HEADER, rows)
    if story_rows:
        print_table("story graphs: hard negatives kept apart, known variants joined", STORY_HEADER, story_rows)


if __name__ == "__main__":
    main()
