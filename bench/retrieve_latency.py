"""Retrieval latency on a resolved generated graph: p50/p95/p99 per mode with concurrent clients,
next to the same local query on the unresolved mention layer, and through the HTTP API.

    python bench/retrieve_latency.py [--mentions 100000] [--queries 200] [--clients 1,4] [--existing]

``--existing`` measures the database the kgres settings point at (KGRES_HOME, NEO4J_URI, ...),
already ingested and resolved, instead of generating and resolving a graph: how fast is retrieval
on my graph. It only adds the retrieval projection and communities there.

Latency is end to end inside kgres: encoding the question (MiniLM on the CPU) plus the Cypher round
trips; the HTTP row adds FastAPI and the loopback socket. Runs on its own temporary managed Neo4j.
The "Cypher context" row computes the context with retrieve_context.cypher instead of the plugin's
kgres.retrieve.context: the baseline for the procedure, run interleaved with "local" question by
question; likewise "float32 encoder" (retrieve.encoder_bf16 = "off") for the bfloat16 linear layers
the encoder uses where the CPU has them. queries/s is clients / mean latency.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.resolve import resolve  # noqa: E402
from kgres.retrieve import RetrieveConfig, Retriever  # noqa: E402
from kgres.evaluate.synth import generate  # noqa: E402

TEMPLATES = ["Who works with {}?", "What does {} use?", "Where is {} located?", "Who founded {}?"]


def questions(db, n: int) -> list[str]:
    """``n`` deterministic questions about well-mentioned entities of the graph."""
    names = [r["n"] for r in db.run("MATCH (e:Entity) WHERE e.mention_count >= 2 "
                                    "RETURN e.name AS n ORDER BY e.id LIMIT $n", n=n)]
    return [TEMPLATES[i % len(TEMPLATES)].format(name) for i, name in enumerate(names)]


def _percentiles(ms: list[float]) -> list[float]:
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return [round(q[49], 1), round(q[94], 1), round(q[98], 1)]


def _run(calls: list, qs: list[str], clients: int) -> list[tuple[list[float], float]]:
    """Latencies (ms) of each of ``calls`` over ``qs`` split across ``clients`` threads, and its
    queries per second (clients / mean latency). Several calls are interleaved question by question,
    first one then the other, so a comparison is not skewed by the machine's speed drifting
    between two runs."""
    out: list[list[float]] = [[] for _ in calls]
    lock = threading.Lock()

    def worker(part: list[str]) -> None:
        mine: list[list[float]] = [[] for _ in calls]
        for i, q in enumerate(part):
            for j in (range(len(calls)) if i % 2 == 0 else reversed(range(len(calls)))):
                t = time.perf_counter()
                calls[j](q)
                mine[j].append(1000 * (time.perf_counter() - t))
        with lock:
            for j, ms in enumerate(mine):
                out[j].extend(ms)

    threads = [threading.Thread(target=worker, args=(qs[i::clients],)) for i in range(clients)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return [(ms, 1000 * clients / statistics.fmean(ms)) for ms in out]


def measure(db, n_queries: int = 200, clients: tuple[int, ...] = (1, 4)) -> None:
    """Print the latency table for the database's current (resolved) graph."""
    r = Retriever(db)
    r.encode("warm up")
    t = time.perf_counter()
    r.projection()
    t_proj = time.perf_counter() - t
    t = time.perf_counter()
    built = r.communities()
    t_comm = time.perf_counter() - t
    qs = questions(db, n_queries)
    r32 = Retriever(db, cfg=RetrieveConfig(encoder_bf16="off"))  # the float32 question encoder
    r32.encode("warm up")
    [(encode_ms, _), (encode32_ms, _)] = _run([r.encode, r32.encode], qs[:50], 1)
    # (mode, layer, call) groups; the calls of one group run interleaved: local on the resolved graph
    # against its two baselines, the Cypher-file context and the unresolved mention layer
    groups = [[("local", "entities", lambda q: r.retrieve(q)),
               ("local, Cypher context", "entities", lambda q: r.retrieve(q, context_procedure=False)),
               ("local, float32 encoder", "entities", lambda q: r32.retrieve(q)),
               ("local", "mentions (unresolved)", lambda q: r.retrieve(q, layer="mentions"))],
              [("ppr", "entities", lambda q: r.retrieve(q, mode="ppr"))],
              [("community", "entities", lambda q: r.retrieve(q, mode="community"))]]
    rows = []
    for group in groups:
        for q in qs[:10]:
            for _, _, call in group:
                call(q)  # warm the page cache and query plans
        for c in clients:
            for (mode, layer, _), (ms, qps) in zip(group, _run([call for *_, call in group], qs, c)):
                rows.append([mode, layer, c, *_percentiles(ms), round(qps, 1)])
    from kgres.retrieve.serve import Server, create_app
    from tests.graphs import free_port

    with Server(create_app(db, r), port=free_port()) as server:
        def http(q: str) -> None:
            req = urllib.request.Request(server.url + "/retrieve", data=json.dumps({"query": q}).encode(),
                                         headers={"content-type": "application/json"})
            with urllib.request.urlopen(req, timeout=60) as resp:
                resp.read()
        for q in qs[:10]:
            http(q)
        for c in clients:
            [(ms, qps)] = _run([http], qs, c)
            rows.append(["local over HTTP", "entities", c, *_percentiles(ms), round(qps, 1)])
    entities = db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]
    mentions = db.run("MATCH (m:Mention) RETURN count(m) AS n")[0]["n"]
    print(f"\nretrieval on {entities:,} entities ({mentions:,} mentions): {len(qs)} questions per row; "
          f"projection {t_proj:.1f}s, {built['communities']:,} communities built in {t_comm:.0f}s; "
          f"question encoding alone p50 {statistics.median(encode_ms):.1f} ms "
          f"({'bfloat16' if r._query_encoder().bf16 else 'float32'} linear layers; "
          f"float32: {statistics.median(encode32_ms):.1f} ms)")
    print_table("latency per query, ms (encode + Cypher), clients in parallel threads",
                ["mode", "layer", "clients", "p50", "p95", "p99", "queries/s"], rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--mentions", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--clients", default="1,4")
    ap.add_argument("--existing", action="store_true", help="measure the configured, resolved database")
    args = ap.parse_args()
    clients = tuple(int(c) for c in args.clients.split(","))
    if args.existing:
        from kgres.config import load_settings
        from kgres.db import Database

        with Database.connect(load_settings()) as db:
            measure(db, args.queries, clients)
        return
    with tempfile.TemporaryDirectory() as tmp:
        path, gold_path = Path(tmp) / "g.jsonl", Path(tmp) / "g.gold.jsonl"
        generate(path, gold_path, args.mentions)
        with bench_database() as db:
            t = time.perf_counter()
            ingest.ingest(db, "jsonl", path)
            t_ingest = time.perf_counter() - t
            t = time.perf_counter()
            stats = resolve(db, on_step=lambda m: print(f"  {m}", flush=True))
            slow = ", ".join(f"{k} {v:.0f}s" for k, v in sorted(stats.seconds.items(), key=lambda kv: -kv[1]))
            print(f"{args.mentions:,} mentions: ingest {t_ingest:.0f}s; resolve {time.perf_counter() - t:.0f}s "
                  f"({stats.entities_before:,} -> {stats.entities_after:,} entities, {stats.candidate_pairs:,} "
                  f"candidate pairs; {slow})", flush=True)
            measure(db, args.queries, clients)


if __name__ == "__main__":
    main()
