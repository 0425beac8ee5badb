"""Run resolution strategies one after another on one ingested graph and score each against gold.

Each strategy runs as a real ``kgres resolve --strategy`` run, is exported (``SAME_AS`` links count
as clusters, for ``cosine``) and rolled back before the next, so all rows see the same input in the
same process. Text embeddings are cached on the entities, so the first strategy that embeds pays
for it (its ``embed`` seconds); later ones reuse them.
"""

from __future__ import annotations

import time

from kgres.evaluate.metrics import bcubed, pairwise
from kgres.curate import export
from kgres.resolve import merge
from kgres.resolve.cluster import UnionFind
from kgres.db import Database
from kgres.resolve import STRATEGIES, ResolveConfig, resolve

HEADER = ["strategy", "entities", "pair P", "pair R", "pair F1", "B3 F1", "false-merge pairs",
          "pairs/entity", "seconds", "slowest stages"]


SWEEP_HEADER = ["cosine threshold", "clusters", "pair P", "pair R", "pair F1"]
SWEEP = (0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def cosine_threshold_clusters(db: Database, run_id: str,
                              thresholds: tuple[float, ...] = SWEEP) -> dict[float, dict[str, str]]:
    """The cosine baseline's clusters at stricter thresholds, from the SAME_AS links of one run (each
    carries its cosine), so it can be compared with another strategy at equal recall:
    {threshold: {input mention id: cluster}}."""
    entity_of = {k: row["entity_id"] for row in export.clusters(db, same_as=False) for k in row["mention_ids"]}
    links = [(r["a"], r["b"], r["c"]) for r in db.run(
        "MATCH (a:Entity)-[s:SAME_AS {run_id: $run_id}]->(b:Entity) RETURN a.id AS a, b.id AS b, s.confidence AS c",
        run_id=run_id)]
    out = {}
    for t in thresholds:
        uf = UnionFind()
        for a, b, c in links:
            if c >= t:
                uf.union(a, b)
        out[t] = {m: uf.find(e) for m, e in entity_of.items()}
    return out


def compare(db: Database, gold: dict[str, str], strategies: tuple[str, ...] = STRATEGIES,
            log=print, keep_last: bool = False, stats_out: list | None = None,
            sweep_out: list | None = None, clusters_out: dict | None = None) -> list[list[object]]:
    """One table row per strategy (see HEADER). ``keep_last``: the last strategy's run is not rolled
    back, so later measurements (judge cost, retrieval latency) see its resolved graph. ``stats_out``
    collects each run's ResolveStats; ``sweep_out`` the cosine run's threshold sweep (SWEEP_HEADER rows);
    ``clusters_out`` each strategy's clusters ({input mention id: cluster}), and the cosine run's at
    each sweep threshold as ``cosine@<threshold>``, to score against another gold."""
    rows = []
    for n, name in enumerate(strategies):
        log(f"  strategy {name}")
        t = time.perf_counter()
        stats = resolve(db, ResolveConfig(strategy=name), on_step=lambda m: log(f"    {m}"))
        secs = time.perf_counter() - t
        capped = "" if stats.converged else f", stopped by max_passes ({stats.last_pass_merged:,} merged by the last)"
        log(f"  resolved in {secs:.1f} s, {stats.passes} passes{capped}")
        if stats_out is not None:
            stats_out.append(stats)
        pred = {k: row["entity_id"] for row in export.clusters(db, same_as=True) for k in row["mention_ids"]}
        if clusters_out is not None:
            clusters_out[name] = pred
        if name == "cosine" and (sweep_out is not None or clusters_out is not None):
            at = cosine_threshold_clusters(db, stats.run_id)
            for t, clusters in at.items():
                if sweep_out is not None:
                    pw = pairwise(clusters, gold)
                    sweep_out.append([t, len(set(clusters.values())), pw["p"], pw["r"], pw["f1"]])
                if clusters_out is not None:
                    clusters_out[f"cosine@{t}"] = clusters
        if not (keep_last and n == len(strategies) - 1):
            merge.rollback(db, stats.run_id)
        pw, b3 = pairwise(pred, gold), bcubed(pred, gold)
        slow = ", ".join(f"{k} {v:.0f}s" for k, v in sorted(stats.seconds.items(), key=lambda kv: -kv[1])[:3])
        rows.append([name, len(set(pred.values())), pw["p"], pw["r"], pw["f1"], b3["f1"], pw["false_merges"],
                     round(stats.candidate_pairs / max(1, stats.entities_before), 2), round(secs, 1), slow])
        log(f"  done: {dict(zip(HEADER, rows[-1]))}")  # partial results survive an interrupted bench
    return rows
