"""Resolution at scale on a generated noisy graph with gold: quality, candidate pairs per entity,
time and the slowest stages of kgres next to every baseline strategy, in one process.

    python bench/resolve_scale.py [--mentions 100000] [--strategies default,exact]

Runs on its own temporary managed Neo4j.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, peak_rss_mib, print_table  # noqa: E402
from bench.compare import HEADER, compare  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.synth import generate, gold_of  # noqa: E402
from kgres.resolve import STRATEGIES  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--strategies", default=",".join(STRATEGIES),
                    help="comma-separated, run in this order (default: all)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path, gold_path = Path(tmp) / "synth.jsonl", Path(tmp) / "gold.jsonl"
        generate(path, gold_path, args.mentions)
        gold = gold_of(gold_path)
        with bench_database() as db:
            t = time.perf_counter()
            ing = ingest.ingest(db, "jsonl", path, source="synth")
            t_ingest = time.perf_counter() - t
            rows = compare(db, gold, tuple(args.strategies.split(",")))
    print(f"\n{args.mentions:,} mentions of {len(set(gold.values())):,} real entities; ingest {t_ingest:.0f}s "
          f"({ing.triples:,} triples); peak Python RSS {peak_rss_mib():.0f} MiB")
    print_table("quality vs gold, each strategy a recorded run rolled back before the next", HEADER, rows)


if __name__ == "__main__":
    main()
