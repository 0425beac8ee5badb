"""``kgres explain``: the alias trail of an entity, straight from the graph."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from kgres.db import Database
from kgres.errors import KgresError


class Explanation(BaseModel):
    entity: dict[str, Any]
    mentions: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    rejected: list[dict[str, Any]]


def explain(db: Database, name_or_id: str) -> Explanation:
    """Explain the entity with this id, or the best-supported entity with this name or alias.

    Raises:
        KgresError: nothing matches.
    """
    found = db.read("curate_explain_find", q=name_or_id)
    if not found:
        raise KgresError(f"no entity with id, name or alias '{name_or_id}'")
    row = db.read("curate_explain_entity", id=found[0]["id"])[0]
    row["mentions"].sort(key=lambda m: m["id"])
    return Explanation(**row)
