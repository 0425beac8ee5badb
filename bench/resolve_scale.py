"""Resolution at scale on a generated noisy graph with gold: quality, candidate pairs per entity,
time and the slowest stages of kgres next to every baseline strategy, in one process.

    python bench/resolve_scale.py [--mentions 100000] [--strategies exact,default] [--after judge,latency]
                                  [--profile] [--queries]

With ``--after``, the last strategy's run is kept (run default last) and the judge cost
(bench/judge_cost.py) and retrieval latency (bench/retrieve_latency.py) are measured on its
resolved graph, saving a second resolution of the same graph.

With ``--profile``, each stage of each strategy is profiled (bench/stage_profile.py) and the functions
that spent the most time are printed per stage after the tables. With ``--queries``, the time in
Neo4j per Cypher file (bench/query_profile.py), summed over the strategies run, then per stage of
each strategy: its wall time, its time in Neo4j and the files that took most of it.

Runs on its own temporary managed Neo4j.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, peak_rss_mib, print_table  # noqa: E402
from bench import judge_cost, retrieve_latency  # noqa: E402
from bench.stage_profile import StageProfile  # noqa: E402
from bench.query_profile import QueryClock  # noqa: E402
from bench.compare import HEADER, SWEEP_HEADER, compare  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.evaluate.synth import generate, gold_of  # noqa: E402
from kgres.resolve import STRATEGIES  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--strategies", default=",".join(STRATEGIES[1:] + STRATEGIES[:1]),
                    help="comma-separated, run in this order (default: all, default last)")
    ap.add_argument("--after", default="", help="comma-separated: judge, latency (on the last run's graph)")
    ap.add_argument("--judge-sample", type=int, default=2000)
    ap.add_argument("--profile", action="store_true", help="print where each stage's time goes (cProfile)")
    ap.add_argument("--queries", action="store_true", help="print the time in Neo4j per Cypher file, and per stage")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, gold_path = Path(tmp) / "synth.jsonl", Path(tmp) / "gold.jsonl"
        generate(path, gold_path, args.mentions)
        gold = gold_of(gold_path)
        with bench_database() as db:
            t = time.perf_counter()
            ing = ingest.ingest(db, "jsonl", path, source="synth")
            t_ingest = time.perf_counter() - t
            after = [a for a in args.after.split(",") if a]
            runs: list = []
            sweep: list = []
            profiler = StageProfile() if args.profile else None
            clock = QueryClock() if args.queries else contextlib.nullcontext()
            with clock:
                log = profiler or print
                rows = compare(db, gold, tuple(args.strategies.split(",")), keep_last=bool(after), stats_out=runs,
                               sweep_out=sweep, log=clock.tracking(log) if args.queries else log)
            print(f"\n{args.mentions:,} mentions of {len(set(gold.values())):,} real entities; ingest "
                  f"{t_ingest:.0f}s ({ing.triples:,} triples); peak Python RSS {peak_rss_mib():.0f} MiB")
            print_table("quality vs gold, each strategy a recorded run rolled back before the next", HEADER, rows)
            if sweep:
                print_table("cosine (HippoRAG) at stricter thresholds, from the same run's SAME_AS links",
                            SWEEP_HEADER, sweep)
            if profiler:
                profiler.report()
            if args.queries:
                clock.report()
            if "judge" in after:
                judge_cost.measure(db, gold, runs[-1].candidate_pairs, args.judge_sample)
            if "latency" in after:
                retrieve_latency.measure(db)


if __name__ == "__main__":
    main()
