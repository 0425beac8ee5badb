"""The bench's own instruments, against a real resolve: they must attribute what they measure to the
right place (their figures are timings, which tests never assert)."""

from __future__ import annotations

from bench.query_profile import OUTSIDE, QueryClock
from kgres import ingest
from kgres.resolve import resolve
from tests.test_resolve import fixture


def test_the_query_clock_counts_each_query_once_under_the_stage_that_sent_it(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path), source="cases")
    messages: list[str] = []
    with QueryClock() as clock:
        step = clock.tracking(messages.append)
        step("  strategy default")  # as bench/compare.py announces each strategy
        resolve(db, on_step=step)
        step("  resolved in 1.0 s, 4 passes")  # any other message ends the stage
        before = clock.stage_calls[OUTSIDE]["db_count"]
        db.count("Entity")
    assert "pass 1: collapse" in messages and "  resolved in 1.0 s, 4 passes" in messages  # every one logged
    calls = clock.stage_calls
    assert set(calls) >= {"default: normalize", "default: collapse", "default: block", "default: score",
                          "default: merge", OUTSIDE}  # stages summed over passes, under their strategy
    assert calls["default: collapse"]["resolve_collapse_keys"] >= 1
    assert calls["default: block"]["resolve_block_lexical"] >= 1
    assert "resolve_merge_groups" not in calls["default: block"]
    assert calls["default: merge"]["resolve_merge_groups"] >= 1
    assert calls[OUTSIDE]["db_count"] == before + 1  # the count after the stage ended is in none
    for name, n in clock.calls.items():  # each call once, in one stage
        assert sum(c[name] for c in calls.values()) == n, name
        assert abs(sum(s[name] for s in clock.stage_seconds.values()) - clock.seconds[name]) < 1e-6, name
    assert all(clock.stage_wall[stage] > 0 for stage in clock.stage_calls)
