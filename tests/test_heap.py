"""kgres.resolve.heap: what a resolve keeps is frozen out of full garbage collections while it runs,
and the collector is left as it was found afterwards."""

from __future__ import annotations

import gc
import weakref

from kgres.resolve.heap import YOUNG, long_lived, settle


class _Node:
    def __init__(self) -> None:
        self.other: _Node | None = None


def _cycle() -> weakref.ref:
    """A reference cycle nobody holds (only the cyclic collector frees it); a weak reference to it."""
    a, b = _Node(), _Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_a_scope_freezes_what_is_alive_and_gives_it_back():
    thresholds = gc.get_threshold()
    assert gc.get_freeze_count() == 0
    with long_lived():
        assert gc.get_freeze_count() > 0 and gc.get_threshold() == (YOUNG, *thresholds[1:])
        garbage = _cycle()
        settle()  # the cycle is frozen while still alive ...
        gc.collect()
        assert garbage() is not None  # ... so no collection frees it inside the scope
        with long_lived():  # a nested scope (a resolve inside another) gives nothing back early
            pass
        assert gc.get_freeze_count() > 0
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds
    gc.collect()
    assert garbage() is None  # after the scope, the cycle is collected as it would have been


def test_a_process_that_froze_objects_itself_is_left_alone():
    keep = [_Node() for _ in range(10)]
    gc.freeze()
    try:
        frozen, thresholds = gc.get_freeze_count(), gc.get_threshold()
        with long_lived():
            _cycle()
            settle()
            assert gc.get_threshold() == thresholds
        assert gc.get_freeze_count() >= frozen and gc.get_threshold() == thresholds
    finally:
        gc.unfreeze()
    assert keep
