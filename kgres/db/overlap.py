"""Neo4j round trips that run while Python works, on worker threads.

A stage that alternates "build a batch in Python" and "send it to Neo4j" leaves one of the two
idle at any moment. :class:`Overlap` keeps a call in flight: the caller submits a call, goes on
building the next batch, and the next submission (or leaving the ``with`` block) first waits for the
previous call, re-raising its error there. By default calls run in submission order, never two at
once, so what the database sees is exactly what the same calls made in turn would do.

    with Overlap() as ahead:
        for batch in batches:
            ahead.submit(db.write, "name", rows=batch)   # returns the previous call's result

``depth`` > 1 keeps that many calls in flight, as concurrent transactions; a submission beyond them
first waits for the oldest. Only for calls whose order the database cannot see: each writes records
no other call touches (a score stage's own CANDIDATE edges), so any interleaving commits the same
graph, and while one transaction commits the server runs the next on the other core.

The driver is thread-safe and every :class:`~kgres.db.Database` call opens its own session, so a
call on a worker thread needs nothing more.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class Overlap:
    """Up to ``depth`` calls in flight on worker threads (see the module docstring)."""

    def __init__(self, name: str = "kgres-overlap", depth: int = 1) -> None:
        if depth < 1:
            raise ValueError(f"depth must be at least 1, not {depth}")
        self._pool = ThreadPoolExecutor(max_workers=depth, thread_name_prefix=name)
        self._depth = depth
        self._pending: deque[Future] = deque()

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Start ``fn(*args, **kwargs)``; first, with ``depth`` calls in flight, wait for the oldest
        (re-raising its error) and return what it returned (None when fewer were in flight)."""
        previous = self._pending.popleft().result() if len(self._pending) >= self._depth else None
        self._pending.append(self._pool.submit(fn, *args, **kwargs))
        return previous

    def wait(self) -> Any:
        """Wait for the calls in flight, oldest first, and return the newest one's result (None when
        none was in flight; re-raising the first error)."""
        result = None
        while self._pending:
            result = self._pending.popleft().result()
        return result

    def __enter__(self) -> "Overlap":
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self.wait()
        finally:
            # the caller or a call failed: let the calls in flight finish (nothing runs on after the
            # stage returns) but report the first error, not a second one
            while self._pending:
                self._pending.popleft().exception()
            self._pool.shutdown(wait=True)
