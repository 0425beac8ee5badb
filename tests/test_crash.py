"""Commands killed with SIGKILL at points chosen from what they have written, then run again: the end
state is what an uninterrupted command leaves, and the invariants hold (issue 19's crash test; the
tally over many random kills is bench/chaos.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner

from kgres import ingest, schema
from kgres.cli import main
from kgres.config import load_settings
from kgres.resolve import resolve
from tests.graphs import (assert_aggregates_current, assert_one_refers_to_per_mention, graph_state, snapshot,
                          write_jsonl)
from tests.test_resolve import fixture, groups


def kill_when(db, args: list[str], query: str, extra: float = 0.0) -> int:
    """Start ``kgres ARGS``, SIGKILL it once ``query`` (returning ``n``) is positive (plus ``extra``
    seconds); returns its exit code (negative: killed)."""
    proc = subprocess.Popen([sys.executable, "-c", "from kgres.cli import main; main()", *args],
                            env={**os.environ, "KGRES_LOCK__TTL_S": "2"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None and not db.run(query)[0]["n"]:
        time.sleep(0.02)
    time.sleep(extra)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    return proc.wait()


def fresh(db) -> None:
    schema.reset(db)
    schema.init(db, load_settings().schema_)


@pytest.mark.parametrize("moment", ["MATCH (r:ResolutionRun) RETURN count(r) >= 2 AS n",
                                    "MATCH (p:MergePlan) RETURN count(p) AS n"])
def test_a_killed_resolve_rerun_ends_as_an_uninterrupted_one(db, neo4j_env, tmp_path, monkeypatch, moment):
    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    uninterrupted = groups(db)
    fresh(db)
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    assert kill_when(db, ["resolve"], moment) == -signal.SIGKILL
    # the rerun resumes the killed pass (finishing its recorded merges) and goes on to the fixed point
    rerun = CliRunner().invoke(main, ["resolve", "--json"], catch_exceptions=False)
    assert rerun.exit_code == 0
    assert groups(db) == uninterrupted
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 0
    assert db.run("MATCH (p:MergePlan) RETURN count(p) AS n")[0]["n"] == 0
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_a_killed_ingest_rerun_writes_what_an_uninterrupted_one_writes(db, neo4j_env, tmp_path, monkeypatch):
    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(40)]
    recs += [{"kind": "mention", "id": f"m{i}", "name": f"Person {i}", "type": "PERSON", "chunk_id": f"c{i % 40}"}
             for i in range(400)]
    recs += [{"kind": "triple", "subject": f"m{i}", "predicate": "KNOWS", "object": f"m{i + 1}"} for i in range(399)]
    path = write_jsonl(tmp_path / "big.jsonl", recs)
    ingest.ingest(db, "jsonl", path)
    uninterrupted = graph_state(snapshot(db, keep_volatile=False))
    fresh(db)
    code = kill_when(db, ["ingest", "jsonl", str(path), "--batch-size", "5"],
                     "MATCH (m:Mention) RETURN count(m) >= 100 AS n")
    assert code == -signal.SIGKILL  # killed mid-way through the mentions
    assert db.run("MATCH (r:IngestRun) RETURN r.status AS s")[0]["s"] == "running"
    rerun = CliRunner().invoke(main, ["ingest", "jsonl", str(path)], catch_exceptions=False)
    assert rerun.exit_code == 0
    assert graph_state(snapshot(db, keep_volatile=False)) == uninterrupted
