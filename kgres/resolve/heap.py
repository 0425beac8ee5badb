"""The Python heap during a resolve: what is alive when a pass starts stays out of the cyclic garbage
collector's full collections until the resolve ends.

A full collection (generation 2) visits every object the collector tracks. A resolve holds many
that live as long as it does (the embedding model and the libraries it imports, about 500k objects;
the holder table, blocking's words, the pair memo) and allocates fast enough to trigger a full
collection every few seconds, each one visiting them all again: 20k generated mentions, 30 full
collections, 8.6 s of an 86 s resolve; 1k new mentions into a resolved 100k graph, 2.2-2.8 s of
13.5 s. ``gc.freeze()`` moves every tracked object to a permanent generation that collections skip;
``gc.unfreeze()`` at the end puts them back, so cyclic garbage frozen meanwhile is collected after
the resolve as it would have been (reference counting frees everything else as always).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_owned = False  # whether the outermost scope froze (a process that froze objects itself is left alone)
# Allocations between young collections inside the scope (Python's default 700): with the freezes
# alone, the full collections came more often, each over less: 56 of them still took 3.5-4.7 s of a
# 20k-mention resolve; with this, none ran and all collections together took 1.3-1.8 s.
YOUNG = 10_000


@contextmanager
def long_lived() -> Iterator[None]:
    """Freeze what is alive now, and what :func:`settle` freezes inside, until the outermost scope ends."""
    global _depth, _owned
    with _lock:
        if _depth == 0:
            _owned = gc.get_freeze_count() == 0
            thresholds = gc.get_threshold()
            if _owned:
                gc.set_threshold(YOUNG, *thresholds[1:])
        _depth += 1
    settle()
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _owned:
                gc.set_threshold(*thresholds)
                gc.unfreeze()
                _owned = False


def settle() -> None:
    """Inside :func:`long_lived`: freeze what is alive now (a stage's start: the model once loaded,
    what the earlier stages and passes keep). Elsewhere nothing."""
    with _lock:
        if _depth and _owned:
            gc.freeze()
