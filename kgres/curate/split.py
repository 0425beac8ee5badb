"""``kgres split``: undo one merge decision.

``split ENTITY`` (an absorbed entity's id or name) gives it back exactly the mentions it had before
the merge that retired it; ``split MENTION`` moves one mention back to the entity it referred to
before its latest move. Both record ``NOT_SAME_AS`` so no later run re-merges what a person split.
The move and the :Stale mark of the entities it changes are one transaction; their refresh follows,
and what a killed split left unrefreshed is refreshed by the next split, decide or resolve.
"""

from __future__ import annotations

import getpass

from pydantic import BaseModel

from kgres.db import Database
from kgres.errors import KgresError
from kgres.resolve.merge import refresh_stale, refresh_with_context


class SplitResult(BaseModel):
    kind: str
    restored: str
    kept_apart_from: list[str]


def split(db: Database, target: str, reason: str = "split by a person", decided_by: str | None = None) -> SplitResult:
    """Split ``target`` (mention id, or absorbed entity id or name) off the entity it was merged into.

    Raises:
        KgresError: nothing matches, the name is ambiguous, or the mention was never moved.
    """
    who = decided_by or f"human:{getpass.getuser()}"
    refresh_stale(db)  # an earlier split killed before its refresh
    found = db.read("curate_split_find", q=target)
    if not found:
        raise KgresError(f"'{target}' is neither a mention id nor an entity that a merge absorbed")
    if len(found) > 1:
        raise KgresError(f"'{target}' matches {len(found)} things ({', '.join(f['id'] for f in found[:5])}); use an id")
    hit = found[0]
    if hit["kind"] == "mention":
        if not hit["previous"]:
            raise KgresError(f"mention {hit['id']} still refers to its original entity {hit['current']}; "
                             "split the mentions that were merged into it instead")
        rows = db.query("curate_split_mention", id=hit["id"], decided_by=who, reason=reason)
        if not rows:
            raise KgresError(f"mention {hit['id']} has no history for its latest move; it cannot be split")
        restored, canon = rows[0]["previous"], [rows[0]["canonical"]]
    else:
        rows = db.query("curate_split_entity", id=hit["id"], decided_by=who, reason=reason)
        if not rows:
            raise KgresError(f"entity {hit['id']} has no mentions left to take back (a later merge moved them); "
                             "roll that run back first")
        restored, canon = hit["id"], sorted({r["canonical"] for r in rows})
    refresh_with_context(db, sorted({restored, *canon}))
    return SplitResult(kind=hit["kind"], restored=restored, kept_apart_from=canon)
