"""Progress of long work, stage by stage: what the stages report and what a caller shows.

A :class:`Progress` is called with a note (``progress("incremental: 100 new entities")``) and told
about stages: ``stage("pass 2: score")`` when one begins, ``expect(456_542, "pairs")`` once its
size is known, ``advance(2_000)`` as work gets done, ``end()`` when it is over. The base class
passes notes and stage names to a plain ``on_step(message)`` callable and counts nothing, so a
caller that only wants the messages (a test, a bench driven by stage names, the HTTP API) passes a
callable and :func:`as_progress` wraps it; the CLI passes one that shows bars and summary lines
(:class:`kgres.cli.progress.StageProgress`).
"""

from __future__ import annotations

from collections.abc import Callable


class Progress:
    """Reports nothing beyond the messages, which go to ``on_step``."""

    def __init__(self, on_step: Callable[[str], None] = lambda m: None) -> None:
        self._on_step = on_step

    def __call__(self, message: str) -> None:
        """A note: something the work decided or is about to do."""
        self._on_step(message)

    def stage(self, name: str) -> None:
        """A stage begins (the one before it has ended)."""
        self._on_step(name)

    def expect(self, total: int | None, unit: str) -> None:
        """The stage under way has ``total`` units of work (None: not known), counted in ``unit``."""

    def advance(self, n: int) -> None:
        """``n`` more units of the stage under way are done."""

    def end(self) -> None:
        """The stage under way is over."""


class _Prefixed(Progress):
    """Another Progress, every message and stage name prefixed ("pass 2: ")."""

    def __init__(self, inner: Progress, prefix: str) -> None:
        super().__init__()
        self.inner, self.prefix = inner, prefix

    def __call__(self, message: str) -> None:
        self.inner(self.prefix + message)

    def stage(self, name: str) -> None:
        self.inner.stage(self.prefix + name)

    def expect(self, total: int | None, unit: str) -> None:
        self.inner.expect(total, unit)

    def advance(self, n: int) -> None:
        self.inner.advance(n)

    def end(self) -> None:
        self.inner.end()


def as_progress(on_step: Progress | Callable[[str], None]) -> Progress:
    """``on_step`` if it is a Progress, else one that passes it the messages."""
    return on_step if isinstance(on_step, Progress) else Progress(on_step)


def prefixed(on_step: Progress | Callable[[str], None], prefix: str) -> Progress:
    """``on_step`` with ``prefix`` before every message and stage name."""
    return _Prefixed(as_progress(on_step), prefix)
