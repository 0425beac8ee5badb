"""``kgres rollback ingest:...``: remove what one import wrote, as if it had never run.

An import can be rolled back while nothing has built on it: no resolution run (resolve, accepted
decision, split) since it began that is not itself rolled back, no decision on the entities its
mentions made, no triple of a later import that uses its mentions. That covers the case that
matters most, an import that was interrupted or failed (its record says ``running``): the graph
must not keep part of an input.

Crash-safe like a resolution rollback: the record says ``rolling_back`` before anything is removed,
every step removes bounded batches that are consistent on their own, the entities whose RELATED
edges or aggregates change are marked ``:Stale`` in the same transaction and refreshed at the end,
and a rerun continues where a killed one stopped.
"""

from __future__ import annotations

from kgres.db import Database
from kgres.errors import KgresError

BATCH = 5000


def is_ingest_run(run_id: str) -> bool:
    """Whether ``run_id`` names an import (``ingest:<source>:<hash>``) rather than a resolution run."""
    return run_id.startswith("ingest:")


def rollback(db: Database, run_id: str) -> dict[str, int]:
    """Remove the mentions, triples, chunks and documents import ``run_id`` created, with the entities
    its mentions made; refresh the entities its triples touched. Returns counts of what went.

    Raises:
        KgresError: no such import, it is already rolled back, or something has built on it since
            (the message names what to roll back first).
    """
    rows = db.read("ingest_rollback_blockers", run_id=run_id)
    if not rows:
        raise KgresError(f"no import '{run_id}'")
    found = rows[0]
    if found["status"] == "rolled_back":
        raise KgresError(f"import {run_id} is already rolled back")
    if found["status"] != "rolling_back":  # an interrupted rollback was already allowed: finish it
        _refuse_if_built_on(run_id, found)
    # imported here: kgres.resolve imports this module (resolve refuses a half-imported graph)
    from kgres.resolve.merge import refresh_stale

    db.write("ingest_rollback_begin", run_id=run_id)
    removed = {"triples": 0, "mentions": 0, "chunks_and_documents": 0, "entities_refreshed": 0}
    for key, query in (("triples", "ingest_rollback_triples"), ("mentions", "ingest_rollback_mentions"),
                       ("chunks_and_documents", "ingest_rollback_sources")):
        while n := db.query(query, run_id=run_id, limit=BATCH)[0]["removed"]:
            removed[key] += n
    removed["entities_refreshed"] = refresh_stale(db)
    db.write("ingest_rollback_finish", run_id=run_id)
    return removed


def _refuse_if_built_on(run_id: str, found: dict) -> None:
    if found["runs"]:
        raise KgresError(f"import {run_id} cannot be rolled back before the resolution run(s) since it began: "
                         f"{', '.join(found['runs'])} (roll those back first)")
    if found["decided"]:
        raise KgresError(f"import {run_id} cannot be rolled back: decisions were recorded on the entities of "
                         f"its mentions {', '.join(found['decided'])}")
    if found["imports"]:
        raise KgresError(f"import {run_id} cannot be rolled back before the later import(s) whose triples use "
                         f"its mentions: {', '.join(found['imports'])}")


def unfinished(db: Database) -> list[dict]:
    """Imports interrupted or failed midway (``running``), or whose rollback was (``rolling_back``)."""
    return db.read("ingest_unfinished")


def refuse_unfinished(db: Database) -> None:
    """Raise if the graph holds part of an input, naming the import and the two ways out.

    Raises:
        KgresError: an import is unfinished.
    """
    rows = unfinished(db)
    if rows:
        raise KgresError(what_to_do(rows[0]))


def what_to_do(r: dict) -> str:
    """What an unfinished import (a row of :func:`unfinished`) means, and the commands that end it."""
    if r["status"] == "rolling_back":
        return f"the rollback of import {r['id']} was interrupted: run 'kgres rollback {r['id']}' to finish it"
    return (f"import {r['id']} ({r['format']} {r['path']}) did not finish, so the graph holds part of it: run "
            f"'kgres ingest {r['format']} {r['path']} --source {r['source']}' again to finish it, or "
            f"'kgres rollback {r['id']}' to remove it")
