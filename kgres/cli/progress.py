"""What a long command shows on stderr while it works: :class:`StageProgress`."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, ProgressColumn, Task, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.progress import Progress as Bars
from rich.text import Text

from kgres.progress import Progress


class _Counted(ProgressColumn):
    """ "12,000/456,542 pairs  13,792 pairs/s" (no total: the count alone)."""

    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit", "")
        if not unit:
            return Text("")
        count = f"{task.completed:,.0f}/{task.total:,.0f}" if task.total is not None else f"{task.completed:,.0f}"
        speed = f"  {task.speed:,.0f} {unit}/s" if task.speed else ""
        return Text(f"{count} {unit}{speed}")


class StageProgress(Progress):
    """Each stage of a long command on ``console`` (stderr). On a terminal, a live line: the stage, a
    bar, the units done of those expected, the rate and the time left. On a terminal or not, one line
    when a stage ends: its name, the units it counted, its seconds and its rate
    (``pass 2: score  456,542 pairs in 33.1 s (13,792 pairs/s)``), and each note as it comes; off a
    terminal, a stage that counts its work also says every ``every`` seconds how far it is, so a log
    of a long run says where it is. A context manager: leaving it ends the stage under way
    (``stopped after ...`` when an error leaves it)."""

    def __init__(self, console: Console, every: float = 60.0) -> None:
        super().__init__()
        self.console = console
        self.every = every
        self._bars = Bars(TextColumn("{task.description}"), BarColumn(), _Counted(), TimeRemainingColumn(),
                          TimeElapsedColumn(), console=console, transient=True) \
            if console.is_terminal and not console.quiet else None
        self._task: int | None = None
        self._name: str | None = None
        self._unit = ""
        self._done = 0
        self._total: int | None = None
        self._started = 0.0
        self._said = 0.0  # when the stage under way last said how far it is (off a terminal)

    def __enter__(self) -> "StageProgress":
        if self._bars is not None:
            self._bars.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._finish(stopped=kind is not None)
        if self._bars is not None:
            self._bars.stop()

    def __call__(self, message: str) -> None:
        self._print(message)

    def stage(self, name: str) -> None:
        self._finish()
        self._name, self._unit, self._done, self._total = name, "", 0, None
        self._started = self._said = time.perf_counter()
        if self._bars is not None:
            self._task = self._bars.add_task(name, total=None, unit="")

    def expect(self, total: int | None, unit: str) -> None:
        self._total, self._unit = total, unit
        if self._bars is not None and self._task is not None:
            self._bars.update(self._task, total=total, unit=unit)

    def advance(self, n: int) -> None:
        self._done += n
        if self._bars is not None and self._task is not None:
            self._bars.advance(self._task, n)
        elif self._bars is None and self._name is not None and time.perf_counter() - self._said >= self.every:
            self._said = time.perf_counter()
            self._print(self.so_far())

    def so_far(self) -> str:
        """How far the stage under way is: ``pass 2: block  50,000 of 294,182 entity reads after 60.1 s
        (832 entity reads/s, about 4.9 min left)``."""
        seconds = time.perf_counter() - self._started
        rate = self._done / seconds if seconds > 0 else 0.0
        of = f" of {self._total:,}" if self._total is not None else ""
        left = f", about {(self._total - self._done) / rate / 60:.1f} min left" \
            if self._total is not None and rate > 0 and self._total >= self._done else ""
        return f"{self._name}  {self._done:,}{of} {self._unit} after {seconds:.1f} s ({rate:,.0f} {self._unit}/s{left})"

    def end(self) -> None:
        self._finish()

    def summary(self, stopped: bool = False) -> str:
        """The line the stage under way ends with."""
        seconds = time.perf_counter() - self._started
        counted = bool(self._unit and (self._done or self._total))
        if stopped:
            line = f"{self._name}  stopped after {seconds:.1f} s"
            if counted:
                of = f" of {self._total:,}" if self._total is not None else ""
                line += f", {self._done:,}{of} {self._unit} done"
            return line
        if not counted:
            return f"{self._name}  {seconds:.1f} s"
        rate = f" ({self._done / seconds:,.0f} {self._unit}/s)" if seconds > 0 and self._done else ""
        return f"{self._name}  {self._done:,} {self._unit} in {seconds:.1f} s{rate}"

    def _finish(self, stopped: bool = False) -> None:
        if self._name is None:
            return
        line = self.summary(stopped)
        if self._bars is not None and self._task is not None:
            self._bars.remove_task(self._task)
        self._name, self._task = None, None
        self._print(line)

    def _print(self, line: str) -> None:
        self.console.print(line, markup=False, highlight=False, soft_wrap=True)
