"""Neo4j round trips that run while Python works: one at a time, on a worker thread.

A stage that alternates "build a batch in Python" and "send it to Neo4j" leaves one of the two
idle at any moment. :class:`Overlap` keeps one call in flight: the caller submits a call, goes on
building the next batch, and the next submission (or leaving the ``with`` block) first waits for the
previous call, re-raising its error there. Calls run in submission order, never two at once, so
what the database sees is exactly what the same calls made in turn would do.

    with Overlap() as ahead:
        for batch in batches:
            ahead.submit(db.write, "name", rows=batch)   # returns the previous call's result

The driver is thread-safe and every :class:`~kgres.db.Database` call opens its own session, so a
call on the worker thread needs nothing more.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


class Overlap:
    """One call in flight on a worker thread (see the module docstring)."""

    def __init__(self, name: str = "kgres-overlap") -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._pending: Future | None = None

    def submit(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """Wait for the call in flight (re-raising its error), start ``fn(*args, **kwargs)``, and
        return what the previous call returned (None when there was none)."""
        previous = self.wait()
        self._pending = self._pool.submit(fn, *args, **kwargs)
        return previous

    def wait(self) -> Any:
        """Wait for the call in flight, if any, and return its result (re-raising its error)."""
        pending, self._pending = self._pending, None
        return pending.result() if pending is not None else None

    def __enter__(self) -> "Overlap":
        return self

    def __exit__(self, exc_type: object, exc: object, tb: object) -> None:
        try:
            if exc_type is None:
                self.wait()
            elif self._pending is not None:
                # the caller failed: let the call in flight finish (nothing runs on after the
                # stage returns) but report the caller's error, not a second one
                self._pending.exception()
                self._pending = None
        finally:
            self._pool.shutdown(wait=True)
