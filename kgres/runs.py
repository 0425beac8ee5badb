"""``ResolutionRun`` nodes: every decision kgres makes belongs to one, so it can be explained and undone.

A run is started before it writes anything (``run_start``: its id, config, strategy, parent pass
and focus) and finished with its stats (``run_finish``); one still ``running`` was interrupted, and
the next ``kgres resolve`` finishes it.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from kgres import __version__
from kgres.db import Database
from kgres.errors import KgresError


def new_id(prefix: str = "run") -> str:
    """A fresh run id: ``<prefix>-<UTC-ish timestamp>-<6 hex>``."""
    return f"{prefix}-{time.strftime('%Y%m%dT%H%M%S')}-{uuid.uuid4().hex[:6]}"


def start(db: Database, run_id: str, config: str, strategy: str, parent: str | None = None,
          focus: list[str] | None = None, incremental: bool = False, keys: str | None = None,
          carried: list[tuple[str, str]] | None = None) -> None:
    """Create the run (or find it, when resuming); ``config`` is its settings as JSON; ``incremental``:
    a pass of ``kgres resolve --new``; ``keys``: the version of the name keys its normalize leaves on
    every entity (:func:`kgres.resolve.normalize.keys_version`); ``carried``: the pairs a focused pass
    scores besides its focus's (kept, as ``focus`` is, so an interrupted pass resumes with them)."""
    db.write("run_start", run_id=run_id, config=config, kgres_version=__version__, strategy=strategy,
             parent=parent, focus=focus, incremental=incremental, mentions=db.count("Mention"), keys=keys,
             carried_a=[a for a, _ in carried] if carried else None,
             carried_b=[b for _, b in carried] if carried else None)


def finish(db: Database, run_id: str, stats: str) -> None:
    """Mark the run done with its stats (JSON)."""
    db.write("run_finish", run_id=run_id, stats=stats)


def get(db: Database, run_id: str) -> dict[str, Any]:
    """The run's node properties.

    Raises:
        KgresError: no such run.
    """
    rows = db.read("run_get", run_id=run_id)
    if not rows:
        raise KgresError(f"no resolution run '{run_id}'")
    return rows[0]
