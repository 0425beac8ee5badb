"""Run resolution strategies one after another on one ingested graph and score each against gold.

Each strategy runs as a real ``kgres resolve --strategy`` run, is exported (``SAME_AS`` links count
as clusters, for ``cosine``) and rolled back before the next, so all rows see the same input in the
same process. Text embeddings are cached on the entities, so the first strategy that embeds pays
for it (its ``embed`` seconds); later ones reuse them.
"""

from __future__ import annotations

import time

from kgres.metrics import bcubed, pairwise
from kgres import export, merge
from kgres.db import Database
from kgres.resolve import STRATEGIES, ResolveConfig, resolve

HEADER = ["strategy", "entities", "pair P", "pair R", "pair F1", "B3 F1", "false-merge pairs",
          "pairs/entity", "seconds", "slowest stages"]


def compare(db: Database, gold: dict[str, str], strategies: tuple[str, ...] = STRATEGIES,
            log=print, keep_last: bool = False, stats_out: list | None = None) -> list[list[object]]:
    """One table row per strategy (see HEADER). ``keep_last``: the last strategy's run is not rolled
    back, so later measurements (judge cost, retrieval latency) see its resolved graph. ``stats_out``
    collects each run's ResolveStats."""
    rows = []
    for n, name in enumerate(strategies):
        log(f"  strategy {name}")
        t = time.perf_counter()
        stats = resolve(db, ResolveConfig(strategy=name), on_step=lambda m: log(f"    {m}"))
        secs = time.perf_counter() - t
        if stats_out is not None:
            stats_out.append(stats)
        pred = {k: row["entity_id"] for row in export.clusters(db, same_as=True) for k in row["mention_ids"]}
        if not (keep_last and n == len(strategies) - 1):
            merge.rollback(db, stats.run_id)
        pw, b3 = pairwise(pred, gold), bcubed(pred, gold)
        slow = ", ".join(f"{k} {v:.0f}s" for k, v in sorted(stats.seconds.items(), key=lambda kv: -kv[1])[:3])
        rows.append([name, len(set(pred.values())), pw["p"], pw["r"], pw["f1"], b3["f1"], pw["false_merges"],
                     round(stats.candidate_pairs / max(1, stats.entities_before), 2), round(secs, 1), slow])
        log(f"  done: {dict(zip(HEADER, rows[-1]))}")  # partial results survive an interrupted bench
    return rows
