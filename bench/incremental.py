"""Incremental resolution: new mentions joining a resolved graph, next to a whole run, in one process.

    python bench/incremental.py [--mentions 100000] [--adds 100,1000,10000]
                                [--equivalence 3000] [--parts 10]

Scale: a generated graph (with gold) is resolved whole, less its last chunks; those arrive in batches
of about ``--adds`` mentions, each ingested and resolved with ``resolve --new``: seconds, candidate
pairs per new mention, merges. A whole re-resolve of the final graph is timed next to them, and the
final quality of both is scored against the gold.

Equivalence: a smaller generated graph resolved in ``--parts`` increments (the automatic choice:
incremental, whole at each doubling of the graph since the model was trained; and ``--new`` on every
increment after the first) against one run over the whole graph: the pairs of mentions the one run
put together that the increments put together too, and the reverse (pairwise P/R/F1 of the
increments' clusters taking the one run's as truth), and each against the gold.

HTTP: ``--http N`` more batches of ``--http-size`` mentions go through ``kgres serve``'s
``POST /mentions`` after the adds, half from one client, half from two at once: p50/p99 latency;
then the first batch again (a client's retry, which resolves nothing new).

Runs on its own temporary managed Neo4j (or NEO4J_URI with KGRES_BENCH_USE_NEO4J_URI=1).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, peak_rss_mib, print_table  # noqa: E402
from kgres import ingest, schema  # noqa: E402
from kgres.config import load_settings  # noqa: E402
from kgres.curate import export  # noqa: E402
from kgres.db import Database  # noqa: E402
from kgres.evaluate.metrics import pairwise  # noqa: E402
from kgres.evaluate.synth import generate, gold_of, increments  # noqa: E402
from kgres.resolve import ResolveConfig, resolve  # noqa: E402


def clusters(db: Database) -> dict[str, str]:
    """Input mention id -> entity id."""
    return {k: row["entity_id"] for row in export.clusters(db, same_as=False) for k in row["mention_ids"]}


def split_tail(path: Path, out: Path, adds: list[int]) -> tuple[Path, list[Path]]:
    """The input less its last chunks, and those chunks as batches of about ``adds`` mentions each
    (in order), cut at chunk boundaries."""
    lines = path.read_text(encoding="utf-8").splitlines()
    kinds = [json.loads(line)["kind"] for line in lines]
    cut = len(lines)
    batches: list[list[str]] = []
    for want in reversed(adds):
        start, seen = cut, 0
        while start > 0 and seen < want:
            start -= 1
            seen += kinds[start] == "mention"
            while start > 0 and kinds[start] != "chunk":
                start -= 1
                seen += kinds[start] == "mention"
        batches.insert(0, lines[start:cut])
        cut = start
    out.mkdir(parents=True, exist_ok=True)
    base = out / "base.jsonl"
    base.write_text("".join(x + "\n" for x in lines[:cut]), encoding="utf-8")
    paths = []
    for i, batch in enumerate(batches):
        p = out / f"add-{i}.jsonl"
        p.write_text("".join(x + "\n" for x in batch), encoding="utf-8")
        paths.append(p)
    return base, paths


def scale(db: Database, mentions: int, adds: list[int], tmp: Path, http_batches: int = 0, http_size: int = 100) -> None:
    tmp.mkdir(parents=True, exist_ok=True)
    path, gold_path = tmp / "synth.jsonl", tmp / "gold.jsonl"
    generate(path, gold_path, mentions)
    gold = gold_of(gold_path)
    base, batches = split_tail(path, tmp / "tail", adds + [http_size] * http_batches)
    posts = [[json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()]
             for p in batches[len(adds):]]
    batches = batches[:len(adds)]
    ing = ingest.ingest(db, "jsonl", base, source="synth")
    t = time.perf_counter()
    whole = resolve(db, ResolveConfig(), new=False)
    rows = [["whole (base graph)", f"{ing.mentions:,}", f"{time.perf_counter() - t:.1f}",
             f"{whole.candidate_pairs / max(1, ing.mentions):.1f}", f"{whole.merged_entities:,}", whole.passes]]
    print(f"base: {ing.mentions:,} mentions resolved whole in {rows[0][2]} s", flush=True)
    for p in batches:
        added = ingest.ingest(db, "jsonl", p, source="synth")
        t = time.perf_counter()
        inc = resolve(db, ResolveConfig(), new=True)
        took = time.perf_counter() - t
        rows.append([f"--new (+{added.mentions:,})", f"{added.mentions:,}", f"{took:.1f}",
                     f"{inc.candidate_pairs / max(1, added.mentions):.1f}", f"{inc.merged_entities:,}", inc.passes])
        print(f"  +{added.mentions:,} mentions: {took:.1f} s; {inc.seconds}", flush=True)
    if posts:
        http(db, posts)
    incremental = pairwise(clusters(db), gold)
    t = time.perf_counter()
    again = resolve(db, ResolveConfig(), new=False)
    rows.append(["whole re-resolve (final graph)", f"{db.count('Mention'):,}", f"{time.perf_counter() - t:.1f}",
                 f"{again.candidate_pairs / max(1, db.count('Mention')):.1f}", f"{again.merged_entities:,}",
                 again.passes])
    final = pairwise(clusters(db), gold)
    print_table(f"incremental resolution into a resolved {mentions:,}-mention generated graph",
                ["run", "mentions", "seconds", "pairs / mention", "merged", "passes"], rows)
    print_table("quality against the gold", ["after", "precision", "recall", "F1"],
                [[name, f"{q['p']:.3f}", f"{q['r']:.3f}", f"{q['f1']:.3f}"]
                 for name, q in (("the increments", incremental), ("a whole re-resolve", final))])


def http(db: Database, posts: list[list[dict]]) -> None:
    """POST /mentions latency: the batches sent one after another by one client, then two at a time."""
    import threading
    import urllib.request

    from kgres.retrieve import Retriever
    from kgres.retrieve.serve import Server, create_app
    from tests.graphs import free_port

    def post(url: str, records: list[dict], out: list[float]) -> None:
        body = json.dumps({"source": "synth", "records": records}).encode()
        req = urllib.request.Request(url, data=body, method="POST", headers={"content-type": "application/json"})
        t = time.perf_counter()
        with urllib.request.urlopen(req, timeout=600) as resp:
            resp.read()
        out.append(time.perf_counter() - t)

    rows = []
    with Server(create_app(db, Retriever(db)), port=free_port()) as server:
        url = server.url + "/mentions"
        half = len(posts) // 2
        one: list[float] = []
        for records in posts[:half]:
            post(url, records, one)
        two: list[float] = []
        rest = posts[half:]
        threads = [threading.Thread(target=lambda part=part: [post(url, r, two) for r in part])
                   for part in (rest[0::2], rest[1::2])]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        retry: list[float] = []  # a client's retry of a batch already written: nothing new to resolve
        post(url, posts[0], retry)
        for name, lat in (("1 client", one), ("2 clients", two), ("retry of a sent batch", retry)):
            lat.sort()
            if lat:
                rows.append([name, len(lat), f"{lat[len(lat) // 2]:.2f}", f"{lat[min(len(lat) - 1, int(0.99 * len(lat)))]:.2f}",
                             f"{lat[-1]:.2f}"])
    print_table(f"POST /mentions, batches of about {sum(1 for r in posts[0] if r.get('kind') == 'mention')} mentions",
                ["clients", "batches", "p50 s", "p99 s", "max s"], rows)


def equivalence(db: Database, mentions: int, parts: int, tmp: Path) -> None:
    tmp.mkdir(parents=True, exist_ok=True)
    path, gold_path = tmp / "synth.jsonl", tmp / "gold.jsonl"
    generate(path, gold_path, mentions)
    gold = gold_of(gold_path)
    pieces = increments(path, tmp / "parts", parts)
    rows = []

    def fresh() -> None:
        schema.reset(db)
        schema.init(db, load_settings().schema_)

    fresh()
    ingest.ingest(db, "jsonl", path, source="synth")
    t = time.perf_counter()
    resolve(db, ResolveConfig(), new=False)
    one, one_s = clusters(db), time.perf_counter() - t
    q = pairwise(one, gold)
    rows.append(["one run", "-", f"{one_s:.1f}", "1.000", "1.000", f"{q['p']:.3f}", f"{q['r']:.3f}", f"{q['f1']:.3f}"])
    for policy, new in (("automatic", None), ("--new after the first", True)):
        fresh()
        t = time.perf_counter()
        kinds = []
        for i, p in enumerate(pieces):
            ingest.ingest(db, "jsonl", p, source="synth")
            stats = resolve(db, ResolveConfig(), new=None if i == 0 else new)
            kinds.append("i" if stats.incremental else "W")
        took = time.perf_counter() - t
        got = clusters(db)
        same, q = pairwise(got, one), pairwise(got, gold)
        rows.append([f"{parts} increments, {policy}", "".join(kinds), f"{took:.1f}", f"{same['p']:.3f}",
                     f"{same['r']:.3f}", f"{q['p']:.3f}", f"{q['r']:.3f}", f"{q['f1']:.3f}"])
        print(f"  {policy}: {''.join(kinds)} in {took:.1f} s", flush=True)
    print_table(f"{mentions:,} generated mentions in {parts} increments vs one run (i incremental, W whole)",
                ["resolution", "runs", "seconds", "pairs kept (P vs one run)", "pairs found (R vs one run)",
                 "gold P", "gold R", "gold F1"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--adds", default="100,1000,10000", help="comma-separated batch sizes, added in this order")
    ap.add_argument("--equivalence", type=int, default=3000, help="mentions of the equivalence graph (0: skip)")
    ap.add_argument("--parts", type=int, default=10)
    ap.add_argument("--skip-scale", action="store_true")
    ap.add_argument("--http", type=int, default=20, help="POST /mentions batches after the adds (0: skip)")
    ap.add_argument("--http-size", type=int, default=100, help="mentions per POST /mentions batch")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp, bench_database() as db:
        if args.equivalence:
            equivalence(db, args.equivalence, args.parts, Path(tmp) / "eq")
        if not args.skip_scale:
            schema.reset(db)
            schema.init(db, load_settings().schema_)
            scale(db, args.mentions, [int(x) for x in args.adds.split(",")], Path(tmp) / "scale",
                  http_batches=args.http, http_size=args.http_size)
    print(f"peak Python RSS {peak_rss_mib():.0f} MiB")


if __name__ == "__main__":
    main()
