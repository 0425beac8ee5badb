"""Crash tally: ``kgres resolve``, ``kgres rollback`` and ``kgres ingest`` killed with SIGKILL at random
moments, then run again, against what an uninterrupted command leaves, on a generated graph.

    python bench/chaos.py [--mentions 1000] [--trials 50] [--seed 7]

Each trial kills one command (resolve from the ingested graph, rollback of a finished resolve, or an
ingest of the same input again under a second source name) at a random point of its uninterrupted
duration, reruns it to the end (taking over the dead command's writer lock once its heartbeat
expires), and checks: the mentions are grouped exactly as the uninterrupted command groups them;
every mention has one REFERS_TO; every entity's stored aggregates match its mentions; no run is left
running, no import unfinished, no entity marked stale, no merge plan left. A killed ingest is, in
turn, run again (the graph must then hold what the uninterrupted ingest writes) or rolled back with
``kgres rollback ingest:...`` (the graph must be as before it).
Prints the tally per command. Runs on its own temporary managed Neo4j (or NEO4J_URI with
KGRES_BENCH_USE_NEO4J_URI=1).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.common import bench_database, print_table  # noqa: E402
from kgres import ingest  # noqa: E402
from kgres.db import Database  # noqa: E402
from kgres.evaluate.synth import generate  # noqa: E402


def grouping(db: Database) -> frozenset[frozenset[str]]:
    rows = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity) RETURN e.id AS e, collect(m.id) AS ms")
    return frozenset(frozenset(r["ms"]) for r in rows)


def broken(db: Database) -> list[str]:
    """The invariants a finished command must leave, as the names of those that fail."""
    checks = {
        "one REFERS_TO per mention": "MATCH (m:Mention) WHERE COUNT { (m)-[:REFERS_TO]->(:Entity) } <> 1 RETURN count(m) AS n",
        "aggregates current": "MATCH (e:Entity) WHERE e.mention_count <> COUNT { (:Mention)-[:REFERS_TO]->(e) } "
                              "RETURN count(e) AS n",
        "no run left running": "MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n",
        "no import unfinished": "MATCH (i:IngestRun) WHERE i.status IN ['running', 'rolling_back'] RETURN count(i) AS n",
        "no stale entity": "MATCH (e:Stale) RETURN count(e) AS n",
        "no merge plan left": "MATCH (p:MergePlan) RETURN count(p) AS n",
        "lock free": "MATCH (l:WriterLock) WHERE l.token IS NOT NULL RETURN count(l) AS n",
    }
    return [name for name, q in checks.items() if db.run(q)[0]["n"]]


def kgres(args: list[str], env: dict[str, str], kill_after: float | None = None) -> tuple[int, float]:
    """Run ``kgres ARGS``; with ``kill_after``, SIGKILL it then. Returns (exit code, seconds)."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", "from kgres.cli import main; main()", *args],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if kill_after is not None:
        try:
            proc.wait(timeout=kill_after)
        except subprocess.TimeoutExpired:
            proc.send_signal(signal.SIGKILL)
    proc.wait()
    return proc.returncode, time.perf_counter() - t


def size(db: Database) -> tuple[int, int]:
    """Nodes and relationships of the data an import writes and a resolve derives (not the history:
    runs, models, labels, which every resolve adds to)."""
    row = db.run("CALL () { MATCH (n) WHERE n:Document OR n:Chunk OR n:Mention OR n:Entity RETURN count(n) AS nodes } "
                 "CALL () { MATCH ()-[r:PART_OF|IN_CHUNK|RELATES|REFERS_TO|RELATED]->() RETURN count(r) AS rels } "
                 "RETURN nodes, rels")[0]
    return row["nodes"], row["rels"]


def last_run(db: Database) -> str:
    return db.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL AND r.status = 'done' "
                  "RETURN r.id AS id ORDER BY r.started_at DESC LIMIT 1")[0]["id"]


def back_to_base(db: Database) -> None:
    """Roll back every resolve not rolled back yet, newest first (a killed resolve rerun may be two)."""
    from kgres.resolve import merge

    for r in db.run("MATCH (r:ResolutionRun) WHERE r.parent IS NULL AND r.status <> 'rolled_back' "
                    "RETURN r.id AS id ORDER BY r.started_at DESC, r.id DESC"):
        merge.rollback(db, r["id"])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mentions", type=int, default=1000)
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rnd = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp, bench_database() as db:
        path = Path(tmp) / "g.jsonl"
        generate(path, Path(tmp) / "gold.jsonl", args.mentions, seed=args.seed)
        ingest.ingest(db, "jsonl", path)
        env = {**os.environ, "NEO4J_URI": db.target.uri, "NEO4J_USER": db.target.user,
               "NEO4J_PASSWORD": db.target.password or "", "KGRES_LOCK__TTL_S": "2", "KGRES_LOCK__WAIT_S": "30"}
        base = grouping(db)
        code, resolve_s = kgres(["resolve", "--full", "--json"], env)
        assert code == 0, "the uninterrupted resolve failed"
        resolved = grouping(db)
        code, rollback_s = kgres(["rollback", last_run(db)], env)
        assert code == 0 and grouping(db) == base, "the uninterrupted rollback failed"
        extra = ["ingest", "jsonl", str(path), "--source", "again", "--json"]  # the same input, a second namespace
        before = size(db)
        code, ingest_s = kgres(extra, env)
        again = db.run("MATCH (i:IngestRun {source_system: 'again'}) RETURN i.id AS id")[0]["id"]
        ingested = size(db)
        assert code == 0 and kgres(["rollback", again], env)[0] == 0 and size(db) == before, \
            "the uninterrupted ingest or its rollback failed"
        print(f"uninterrupted: resolve {resolve_s:.1f} s, rollback {rollback_s:.1f} s, ingest {ingest_s:.1f} s",
              flush=True)
        # trials, killed mid-way, same result, invariants
        tally = {"resolve": [0, 0, 0, 0], "rollback": [0, 0, 0, 0], "ingest": [0, 0, 0, 0]}
        for trial in range(args.trials):
            op = ("resolve", "rollback", "ingest")[trial % 3]
            if op == "ingest":
                delay = rnd.uniform(0.2, ingest_s)
                code, _ = kgres(extra, env, kill_after=delay)
                killed = code == -signal.SIGKILL
                finish = trial % 2 == 0  # in turn: run it again, or roll it back
                status = db.run("MATCH (i:IngestRun {id: $id}) RETURN i.status AS s", id=again)[0]["s"]
                if finish or status != "rolled_back":  # (killed while reading, it had written nothing)
                    assert kgres(extra if finish else ["rollback", again], env)[0] == 0, "a rerun failed"
                got, want = size(db), ingested if finish else before
                if finish:
                    assert kgres(["rollback", again], env)[0] == 0, "rolling back the finished ingest failed"
                op_done = "ingest, rerun" if finish else "ingest, rolled back"
            elif op == "resolve":
                delay = rnd.uniform(0.5, resolve_s)
                code, _ = kgres(["resolve", "--full", "--json"], env, kill_after=delay)
                killed = code == -signal.SIGKILL
                if killed:  # the rerun finishes the interrupted run, or (killed between passes) goes on
                    assert kgres(["resolve", "--json"], env)[0] == 0, "a rerun failed"
                want = resolved
            else:
                kgres(["resolve", "--full", "--json"], env)  # from the base graph, uninterrupted
                run = last_run(db)
                delay = rnd.uniform(0.2, max(0.5, rollback_s))
                code, _ = kgres(["rollback", run], env, kill_after=delay)
                killed = code == -signal.SIGKILL
                status = db.run("MATCH (r:ResolutionRun {id: $id}) RETURN r.status AS s", id=run)[0]["s"]
                if status != "rolled_back":
                    assert kgres(["rollback", run], env)[0] == 0, "a rerun failed"
                want = base
            if op != "ingest":
                got, op_done = grouping(db), op
            bad = broken(db)
            row = tally[op]
            row[0] += 1
            row[1] += killed
            row[2] += got == want
            row[3] += not bad
            print(f"trial {trial + 1}: {op_done} killed after {delay:.1f} s{'' if killed else ' (had finished)'}: "
                  f"{'same result' if got == want else 'DIFFERENT result'}"
                  f"{'; broken: ' + ', '.join(bad) if bad else ''}", flush=True)
            if op == "resolve":  # back to the ingested graph for the next trial
                back_to_base(db)
        print_table(f"crash tally on {args.mentions:,} generated mentions",
                    ["command", "trials", "killed mid-way", "same result as uninterrupted", "invariants hold"],
                    [[op, *row] for op, row in tally.items()])
        print(json.dumps(tally))


if __name__ == "__main__":
    main()
