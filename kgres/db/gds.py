"""GDS projections with a lifetime: projected by a named Cypher file, dropped when the block ends.

Every GDS call kgres makes is a Cypher procedure in ``cypher/`` (users can run the same files), so
the Python GDS client is not needed; this module only gives projections a ``with`` lifecycle, as
the graphdatascience client does, so a failing algorithm never leaves a graph in the catalog.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from kgres.db.database import Database


@dataclass(frozen=True)
class Projection:
    """A projected graph: its catalog name and size."""

    name: str
    nodes: int
    relationships: int


@contextmanager
def projection(db: Database, query: str, prefix: str, **params: Any) -> Iterator[Projection]:
    """Project a graph with ``cypher/<query>.cypher`` (which takes ``$graph`` and returns ``nodes``
    and ``relationships``) under a fresh name ``kgres_<prefix>_<random>``; drop it on exit, error
    or not.

    Example::

        with projection(db, "resolve_block_project", "block", with_embedding=False) as g:
            db.write("resolve_block_structural", graph=g.name, ...)
    """
    name = f"kgres_{prefix}_{uuid.uuid4().hex[:8]}"
    rows = db.query(query, graph=name, **params)
    try:
        row = rows[0] if rows else {}
        yield Projection(name=name, nodes=row.get("nodes") or 0, relationships=row.get("relationships") or 0)
    finally:
        drop(db, name)


def drop(db: Database, name: str) -> None:
    """Drop the projection ``name`` if it exists."""
    db.query("gds_drop", graph=name)
