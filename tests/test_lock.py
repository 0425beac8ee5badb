"""The writer lock (kgres.db.lock) on the real database: one writer at a time, waits, clean failure
naming the holder, takeover from a holder that died, and the CLI honouring it."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import pytest
from click.testing import CliRunner

from kgres.cli import main
from kgres.config import LockSettings
from kgres.db import Database
from kgres.db.lock import LockHeld, writer_lock
from tests.test_resolve import fixture

NO_WAIT = LockSettings(wait_s=0, ttl_s=60)


def holder(db: Database) -> str | None:
    rows = db.run("MATCH (l:WriterLock {name: 'writer'}) RETURN l.owner AS owner")
    assert len(rows) <= 1
    return rows[0]["owner"] if rows else None


def test_one_writer_at_a_time_and_the_second_names_the_holder(db):
    with writer_lock(db, "resolve", NO_WAIT):
        assert "kgres resolve" in holder(db)
        with Database(db.target) as other:
            with pytest.raises(LockHeld, match=r"kgres resolve \(pid \d+ on .*last heartbeat"):
                with writer_lock(other, "ingest", NO_WAIT):
                    pass
        with writer_lock(db, "ingest --resolve", NO_WAIT):  # re-entrant on the same handle
            assert "kgres resolve" in holder(db)
    assert holder(db) is None
    with writer_lock(db, "rollback", NO_WAIT):
        assert "kgres rollback" in holder(db)


def test_writers_asking_at_once_get_it_one_at_a_time(db):
    inside, overlaps, order = [0], [], []
    guard = threading.Lock()

    def work(i: int) -> None:
        with Database(db.target) as own, writer_lock(own, f"w{i}", LockSettings(wait_s=60, ttl_s=60)):
            with guard:
                inside[0] += 1
                overlaps.append(inside[0])
                order.append(i)
            time.sleep(0.2)
            with guard:
                inside[0] -= 1

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(order) == list(range(6)) and max(overlaps) == 1


def test_a_waiting_writer_says_so_and_proceeds_when_the_holder_finishes(db):
    messages: list[str] = []
    release = threading.Timer(1.0, lambda: None)
    with Database(db.target) as first:
        ctx = writer_lock(first, "resolve", NO_WAIT)
        ctx.__enter__()
        release = threading.Timer(1.5, lambda: ctx.__exit__(None, None, None))
        release.start()
        with writer_lock(db, "ingest", LockSettings(wait_s=30, ttl_s=60), on_wait=messages.append):
            assert "kgres ingest" in holder(db)
        release.join()
    assert len(messages) == 1 and "waiting up to 30 s for the writer lock: kgres resolve" in messages[0]


def test_a_killed_holders_lock_is_taken_over_after_its_heartbeat_expires(db):
    """A holder killed with SIGKILL never releases; its lock expires ttl seconds after its last beat."""
    code = ("import os, signal, sys\n"
            "from kgres.config import LockSettings\n"
            "from kgres.db import Database, Target\n"
            "from kgres.db.lock import writer_lock\n"
            f"db = Database(Target({db.target.uri!r}, {db.target.user!r}, {db.target.password!r}, "
            f"{db.target.database!r}, False))\n"
            "with writer_lock(db, 'resolve', LockSettings(wait_s=0, ttl_s=2)):\n"
            "    print('held', os.getpid(), flush=True)\n"
            "    os.kill(os.getpid(), signal.SIGKILL)\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL and "held" in proc.stdout
    pid = proc.stdout.split()[1]
    assert f"kgres resolve (pid {pid} " in holder(db)  # the dead process still holds it
    with pytest.raises(LockHeld):
        with writer_lock(db, "ingest", NO_WAIT):
            pass
    messages: list[str] = []
    with writer_lock(db, "ingest", LockSettings(wait_s=30, ttl_s=60), on_wait=messages.append):
        assert "kgres ingest" in holder(db)
    assert any("took over the writer lock of kgres resolve" in m and "presumed dead" in m for m in messages)


def test_a_live_holders_heartbeat_keeps_its_lock_past_the_ttl(db):
    with writer_lock(db, "resolve", LockSettings(wait_s=0, ttl_s=1.5)):
        time.sleep(3.5)  # more than twice the ttl: only the heartbeat keeps it
        with Database(db.target) as other:
            with pytest.raises(LockHeld):
                with writer_lock(other, "ingest", NO_WAIT):
                    pass


def test_cli_writer_fails_with_exit_1_naming_the_holder_and_readers_never_wait(db, neo4j_env, tmp_path,
                                                                              monkeypatch):
    from kgres import ingest

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    monkeypatch.setenv("KGRES_LOCK__WAIT_S", "0")
    run = CliRunner()
    with Database(db.target) as other, writer_lock(other, "resolve", NO_WAIT):
        out = run.invoke(main, ["resolve", "--json"])
        assert out.exit_code == 1
        assert "another writer holds the database: kgres resolve (pid" in out.output
        assert db.run("MATCH (r:ResolutionRun) RETURN count(r) AS n")[0]["n"] == 0  # nothing started
        assert run.invoke(main, ["rollback", "nothing"]).exit_code == 1
        status = run.invoke(main, ["status", "--json"], catch_exceptions=False)  # a reader
        assert status.exit_code == 0 and json.loads(status.output)
    done = run.invoke(main, ["resolve", "--json"], catch_exceptions=False)
    assert done.exit_code == 0 and json.loads(done.stdout)["merged_entities"] > 0
    assert holder(db) is None
