"""Where each stage's time goes: a cProfile per resolve stage, driven by the stage messages.

    profiler = StageProfile(print)
    resolve(db, cfg, on_step=profiler)   # or bench/resolve_scale.py --profile
    profiler.report()

Each message ``pass N: <stage>`` (or a bare ``<stage>``) ends the stage before it and starts a
profile for this one; the profiles of one stage name are summed over passes (and kept apart per
strategy when bench/compare.py announces them). The report prints,
per stage, the functions that spent the most time themselves (``tottime``), with time spent
waiting on Neo4j shown as the driver's socket reads, so "Python is slow" and "the database is slow"
read apart.
"""

from __future__ import annotations

import cProfile
import pstats
import re
import time
from collections.abc import Callable

STAGE = re.compile(r"^\s*(?:pass \d+: )?([a-z][a-z_-]*)$")
STRATEGY = re.compile(r"^\s*strategy (\S+)$")  # bench/compare.py's line before each strategy


class StageProfile:
    """An ``on_step`` callback that profiles each stage separately; ``report()`` prints the totals."""

    def __init__(self, log: Callable[[str], None] = print, top: int = 8) -> None:
        self.log, self.top = log, top
        self.stats: dict[str, pstats.Stats] = {}
        self.seconds: dict[str, float] = {}
        self._current: tuple[str, cProfile.Profile, float] | None = None
        self._strategy = ""

    def __call__(self, message: str) -> None:
        self.log(message)
        self.stop()
        if m := STRATEGY.match(message):
            self._strategy = f"{m.group(1)}: "
        elif m := STAGE.match(message):
            prof = cProfile.Profile()
            self._current = (self._strategy + m.group(1), prof, time.perf_counter())
            prof.enable()

    def stop(self) -> None:
        """End the stage being profiled (call once resolve returns)."""
        if self._current is None:
            return
        name, prof, t = self._current
        prof.disable()
        self._current = None
        self.seconds[name] = self.seconds.get(name, 0.0) + time.perf_counter() - t
        if name in self.stats:
            self.stats[name].add(prof)
        else:
            self.stats[name] = pstats.Stats(prof)

    def report(self) -> None:
        self.stop()
        for name, secs in sorted(self.seconds.items(), key=lambda kv: -kv[1]):
            rows = sorted(self.stats[name].stats.items(), key=lambda kv: -kv[1][2])[:self.top]
            print(f"\n{name}: {secs:.1f} s (profiled; slower than unprofiled)")
            print("    calls   own s   cum s  function")
            for (file, line, func), (_, calls, own, cum, _) in rows:
                print(f"  {calls:>7} {own:7.2f} {cum:7.2f}  {_short(file)}:{line}({func})")


def _short(where: str) -> str:
    """``.../kgres/resolve/score/levels.py:243(_name)`` → ``kgres/resolve/score/levels.py:243(_name)``."""
    for anchor in ("kgres/", "site-packages/", "lib/python"):
        i = where.find(anchor)
        if i >= 0:
            return where[i:]
    return where
