"""Ingest throughput: a generated graph of 100k mentions and 200k triples, batched UNWIND vs. a
row-at-a-time baseline (one transaction per row, as naive importers do), same process, same server.

    python bench/ingest_throughput.py [--mentions 100000] [--triples 200000] [--baseline-rows 2000]

Runs on its own temporary managed Neo4j (heap 2g, page cache 1g), so your data is never touched.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, peak_rss_mib, print_table  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.ingest.writer import _Namespace  # noqa: E402

TYPES = ["PERSON", "ORGANIZATION", "GEO", "EVENT", "CONCEPT"]
FIRST = ["Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Frances", "John", "Karen", "Tim"]
LAST = ["Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov", "Knuth", "Allen", "Backus", "Jones", "Berners"]


def generate(path: Path, mentions: int, triples: int, seed: int = 7) -> None:
    """Write a kgres JSONL graph: 10 mentions per chunk, 10 chunks per document, random triples."""
    rnd = random.Random(seed)
    chunks = max(1, mentions // 10)
    docs = max(1, chunks // 10)
    with open(path, "w", encoding="utf-8") as f:
        for d in range(docs):
            f.write(json.dumps({"kind": "document", "id": f"d{d}", "title": f"Document {d}"}) + "\n")
        for c in range(chunks):
            f.write(json.dumps({"kind": "chunk", "id": f"c{c}", "document_id": f"d{c // 10}", "index": c % 10,
                                "text": f"Chunk {c} of generated text."}) + "\n")
        for m in range(mentions):
            name = f"{rnd.choice(FIRST)} {rnd.choice(LAST)} {m % 5000}"
            f.write(json.dumps({"kind": "mention", "id": f"m{m}", "name": name, "type": rnd.choice(TYPES),
                                "chunk_id": f"c{m // 10}", "description": f"Generated mention {m}."}) + "\n")
        for t in range(triples):
            s, o = rnd.randrange(mentions), rnd.randrange(mentions)
            f.write(json.dumps({"kind": "triple", "id": f"t{t}", "subject": f"m{s}", "object": f"m{o}",
                                "predicate": rnd.choice(["KNOWS", "WORKS_WITH", "CITES", "PART_OF"]),
                                "chunk_id": f"c{s // 10}", "weight": 1.0}) + "\n")


def batched(db, path: Path, batch_size: int) -> dict[str, float]:
    """Ingest with the real writer; return seconds per kind (validation timed separately)."""
    marks: dict[str, float] = {}
    t0 = time.perf_counter()
    read_done: dict[str, float] = {}

    def on_read(_src):
        read_done["t"] = time.perf_counter()

    def on_progress(kind: str, n: int) -> None:
        marks[kind] = time.perf_counter()

    ingest.ingest(db, "jsonl", path, source="bench", batch_size=batch_size, on_read=on_read,
                  on_progress=on_progress)
    out, prev = {"validate": read_done["t"] - t0}, read_done["t"]
    for kind in ("documents", "chunks", "mentions", "triples"):
        out[kind] = marks[kind] - prev
        prev = marks[kind]
    return out


def row_at_a_time(db, path: Path, rows: int) -> dict[str, float]:
    """Baseline: the same Cypher, one row per transaction, for the first ``rows`` mentions and triples."""
    src = ingest.read("jsonl", path)
    ns = _Namespace("base")
    out = {}
    for kind, convert in (("mentions", ns.mention), ("triples", ns.triple)):
        it = getattr(src, kind)()
        sample = [convert(next(it)) for _ in range(rows)]
        if kind == "triples":  # endpoints must exist in the baseline namespace: point them at ingested mentions
            sample = [dict(r, subject_id=f"base:m{i % rows}", object_id=f"base:m{(i * 7) % rows}")
                      for i, r in enumerate(sample)]
        t = time.perf_counter()
        for r in sample:
            db.write(f"ingest_{kind}", rows=[r], source="base", run_id="bench-baseline")
        out[kind] = time.perf_counter() - t
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--triples", type=int, default=200_000)
    ap.add_argument("--batch-size", type=int, default=5000)
    ap.add_argument("--baseline-rows", type=int, default=2000)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "graph.jsonl"
        t = time.perf_counter()
        generate(path, args.mentions, args.triples)
        print(f"generated {args.mentions:,} mentions, {args.triples:,} triples "
              f"({path.stat().st_size / 2**20:.0f} MiB) in {time.perf_counter() - t:.1f}s", flush=True)
        with bench_database() as db:
            secs = batched(db, path, args.batch_size)
            base = row_at_a_time(db, path, args.baseline_rows)
            rerun_t = time.perf_counter()
            again = ingest.ingest(db, "jsonl", path, source="bench", batch_size=args.batch_size)
            rerun = time.perf_counter() - rerun_t
    m_rate, t_rate = args.mentions / secs["mentions"], args.triples / secs["triples"]
    bm, bt = args.baseline_rows / base["mentions"], args.baseline_rows / base["triples"]
    print_table(f"ingest throughput (batch {args.batch_size:,}; baseline: 1 row per transaction, "
                f"{args.baseline_rows:,} rows)",
                ["stage", "rows", "seconds", "rows/s", "baseline rows/s", "speed-up"],
                [["validate (Python)", args.mentions + args.triples, secs["validate"],
                  (args.mentions + args.triples) / secs["validate"], "", ""],
                 ["chunks", args.mentions // 10, secs["chunks"], (args.mentions // 10) / secs["chunks"], "", ""],
                 ["mentions (+entity, REFERS_TO, IN_CHUNK)", args.mentions, secs["mentions"], m_rate, bm,
                  f"{m_rate / bm:.0f}x"],
                 ["triples (+RELATED projection)", args.triples, secs["triples"], t_rate, bt, f"{t_rate / bt:.0f}x"],
                 ["re-ingest, same input (no-op)", args.mentions + args.triples, rerun,
                  (args.mentions + args.triples) / rerun, "", ""]])
    print(f"\nre-ingest created {again.nodes_created} nodes, {again.relationships_created} relationships; "
          f"peak Python RSS {peak_rss_mib():.0f} MiB")
    print(f"target >= 20,000/s: mentions {'met' if m_rate >= 20_000 else 'NOT met'}, "
          f"triples {'met' if t_rate >= 20_000 else 'NOT met'}")


if __name__ == "__main__":
    main()
