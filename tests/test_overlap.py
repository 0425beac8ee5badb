"""kgres.db.overlap on the real database: calls run in turn on a worker thread, a failed call is
reported at the next submission, and leaving the block waits for the call in flight; with depth 2,
two calls run at once."""

from __future__ import annotations

import threading

import pytest

from kgres.db.overlap import Overlap
from kgres.errors import DatabaseError

APPEND = "MERGE (n:OverlapProbe {name: 'log'}) SET n.seen = coalesce(n.seen, []) + $i RETURN size(n.seen) AS size"


def seen(db) -> list[int]:
    rows = db.run("MATCH (n:OverlapProbe {name: 'log'}) RETURN n.seen AS seen")
    return rows[0]["seen"] if rows else []


def test_calls_run_in_turn_and_each_submission_returns_the_previous_result(db):
    returned = []
    with Overlap() as ahead:
        for i in range(20):
            returned.append(ahead.submit(db.run, APPEND, i=i))
    assert seen(db) == list(range(20))  # in order, and the last one done when the block ends
    assert returned[0] is None
    assert returned[1:] == [[{"size": i}] for i in range(1, 20)]


def test_a_failed_call_is_raised_at_the_next_submission_and_nothing_after_it_runs(db):
    with pytest.raises(DatabaseError):
        with Overlap() as ahead:
            ahead.submit(db.run, APPEND, i=0)
            ahead.submit(db.run, "MATCH (n:OverlapProbe) RETURN 1 / 0 AS x")
            ahead.submit(db.run, APPEND, i=1)  # raises the division's error; this call never starts
            ahead.submit(db.run, APPEND, i=2)
    assert seen(db) == [0]


def test_a_caller_that_fails_waits_for_the_call_in_flight_and_reports_its_own_error(db):
    with pytest.raises(ValueError, match="caller"):
        with Overlap() as ahead:
            ahead.submit(db.run, "CALL apoc.util.sleep(300) " + APPEND, i=7)
            raise ValueError("caller")
    assert seen(db) == [7]  # finished before the error left the block


def test_depth_two_runs_two_calls_at_once_and_returns_the_oldest_result_when_full():
    started = threading.Event()

    def first() -> bool:
        return started.wait(timeout=30)  # true only if the second call started while this one ran

    def second() -> str:
        started.set()
        return "second"

    with Overlap(depth=2) as ahead:
        assert ahead.submit(first) is None
        assert ahead.submit(second) is None
        assert ahead.submit(lambda: "third") is True  # two in flight: waited for the oldest
        assert ahead.wait() == "third"  # the newest result, after the others
    with Overlap() as ahead:  # depth 1: the second call only starts once the first is done
        ahead.submit(lambda: started.clear() or started.wait(timeout=0.2))
        assert ahead.submit(second) is False


def test_depth_two_writes_commit_every_batch_and_a_failure_is_raised_after_the_others_finish(db):
    create = "UNWIND $ids AS i CREATE (:OverlapProbe {name: 'row', i: i})"
    with Overlap(depth=2) as ahead:
        for start in range(0, 100, 10):
            ahead.submit(db.run, create, ids=list(range(start, start + 10)))
    rows = db.run("MATCH (n:OverlapProbe {name: 'row'}) RETURN n.i AS i ORDER BY i")
    assert [r["i"] for r in rows] == list(range(100))
    with pytest.raises(DatabaseError):
        with Overlap(depth=2) as ahead:
            ahead.submit(db.run, "MATCH (n:OverlapProbe) RETURN 1 / 0 AS x")
            ahead.submit(db.run, "CALL apoc.util.sleep(300) " + APPEND, i=5)
    assert seen(db) == [5]  # the call in flight beside the failed one finished before the error left


def test_depth_must_be_positive():
    with pytest.raises(ValueError, match="depth"):
        Overlap(depth=0)
