"""Time spent in each Cypher file: wall time from sending a statement to its last row, summed per
file over a block of work, so "which query is slow" reads straight off a table; and, told the
stage messages, the same per stage, so "which stage waits on which query" does too.

    with QueryClock() as clock:
        resolve(db, cfg, on_step=clock.tracking(print))   # or bench/resolve_scale.py --queries
    clock.report()

Stages are read from the messages as :class:`bench.stage_profile.StageProfile` reads them: ``pass N:
<stage>`` (or a bare ``<stage>``) starts one, summed over passes and kept apart per strategy, and any
other message ends it; time outside every stage counts under "(between stages)".

While the block runs, :class:`kgres.db.Database`'s statement methods are wrapped (``read``,
``stream``, ``write``, ``query``, ``auto_commit``, ``run``); a streamed query counts the time its
rows took to arrive, not the time the caller spent between them. Text run through ``run`` without a
name (``_name``) counts under its first 40 characters. Nested calls (``query`` calls ``run``) count
once, under the outer name.
"""

from __future__ import annotations

import functools
import time
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from bench.stage_profile import STAGE, STRATEGY
from kgres.db.database import Database

_METHODS = ("read", "write", "query", "auto_commit", "run")


OUTSIDE = "(between stages)"


class QueryClock:
    """Seconds and calls per Cypher file while the ``with`` block runs, in all and per stage."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.stage_seconds: dict[str, Counter[str]] = {}  # stage -> file -> seconds
        self.stage_calls: dict[str, Counter[str]] = {}
        self.stage_wall: Counter[str] = Counter()  # stage -> seconds from its message to the next
        self._stage, self._since, self._strategy = OUTSIDE, time.perf_counter(), ""
        self._saved: dict[str, Callable] = {}
        self._depth = 0

    def __enter__(self) -> "QueryClock":
        for name in (*_METHODS, "stream"):
            self._saved[name] = getattr(Database, name)
        for name in _METHODS:
            setattr(Database, name, self._timed(self._saved[name], name))
        setattr(Database, "stream", self._timed_stream(self._saved["stream"]))
        return self

    def __exit__(self, *exc: object) -> None:
        for name, fn in self._saved.items():
            setattr(Database, name, fn)

    def _timed(self, fn: Callable, method: str) -> Callable:
        @functools.wraps(fn)
        def timed(db: Database, first: str, *args: Any, **kwargs: Any) -> Any:
            self._depth += 1
            start = time.perf_counter()
            try:
                return fn(db, first, *args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    label = kwargs.get("_name", first[:40].replace("\n", " ")) if method == "run" else first
                    self._count(label, time.perf_counter() - start, 1)
        return timed

    def _timed_stream(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def timed(db: Database, name: str, *args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
            rows = fn(db, name, *args, **kwargs)
            self._count(name, 0.0, 1)
            while True:
                start = time.perf_counter()
                try:
                    row = next(rows)
                except StopIteration:
                    return
                finally:
                    self._count(name, time.perf_counter() - start, 0)
                yield row
        return timed

    def _count(self, name: str, seconds: float, calls: int) -> None:
        for seconds_of, calls_of in ((self.seconds, self.calls),
                                     (self.stage_seconds.setdefault(self._stage, Counter()),
                                      self.stage_calls.setdefault(self._stage, Counter()))):
            seconds_of[name] += seconds
            calls_of[name] += calls

    def tracking(self, log: Callable[[str], None] = print) -> Callable[[str], None]:
        """An ``on_step`` callback that passes each message to ``log`` and attributes the queries
        after it to the stage it starts (or to none: any other message ends the stage)."""
        def step(message: str) -> None:
            self._end_stage()
            if m := STRATEGY.match(message):
                self._strategy = f"{m.group(1)}: "
            elif m := STAGE.match(message):
                self._stage = self._strategy + m.group(1)
            log(message)
        return step

    def _end_stage(self) -> None:
        now = time.perf_counter()
        self.stage_wall[self._stage] += now - self._since
        self._stage, self._since = OUTSIDE, now

    def report(self, top: int = 25, per_stage: int = 5) -> None:
        """The files that took most time, then (when stages were tracked) each stage's wall time, its
        time in Neo4j and the ``per_stage`` files that took most of it, slowest stage first."""
        total = sum(self.seconds.values())
        print(f"\ntime in Neo4j by Cypher file: {total:.1f} s in {sum(self.calls.values()):,} calls (top {top})")
        print("   seconds   calls  file")
        for name, secs in self.seconds.most_common(top):
            print(f"  {secs:8.2f} {self.calls[name]:7,}  {name}")
        self._end_stage()
        if set(self.stage_wall) <= {OUTSIDE}:
            return  # not told the stages (no tracking callback)
        print("\ntime by stage, summed over passes: wall seconds (message to next message), then in Neo4j")
        for stage, wall in self.stage_wall.most_common():
            files = self.stage_seconds.get(stage, Counter())
            print(f"  {stage}: {wall:.1f} s, {sum(files.values()):.1f} s in Neo4j")
            for name, secs in files.most_common(per_stage):
                print(f"    {secs:8.2f} {self.stage_calls[stage][name]:7,}  {name}")
