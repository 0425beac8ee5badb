"""Time spent in each Cypher file: wall time from sending a statement to its last row, summed per
file over a block of work, so "which query is slow" reads straight off a table.

    with QueryClock() as clock:
        resolve(db, cfg)                       # or bench/resolve_scale.py --queries
    clock.report()

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

from kgres.db.database import Database

_METHODS = ("read", "write", "query", "auto_commit", "run")


class QueryClock:
    """Seconds and calls per Cypher file while the ``with`` block runs."""

    def __init__(self) -> None:
        self.seconds: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
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
                    self.seconds[label] += time.perf_counter() - start
                    self.calls[label] += 1
        return timed

    def _timed_stream(self, fn: Callable) -> Callable:
        @functools.wraps(fn)
        def timed(db: Database, name: str, *args: Any, **kwargs: Any) -> Iterator[dict[str, Any]]:
            rows = fn(db, name, *args, **kwargs)
            self.calls[name] += 1
            while True:
                start = time.perf_counter()
                try:
                    row = next(rows)
                except StopIteration:
                    return
                finally:
                    self.seconds[name] += time.perf_counter() - start
                yield row
        return timed

    def report(self, top: int = 25) -> None:
        total = sum(self.seconds.values())
        print(f"\ntime in Neo4j by Cypher file: {total:.1f} s in {sum(self.calls.values()):,} calls (top {top})")
        print("   seconds   calls  file")
        for name, secs in self.seconds.most_common(top):
            print(f"  {secs:8.2f} {self.calls[name]:7,}  {name}")
