"""``kgres rebuild``: re-derive the entity layer from what it is a projection of.

Every entity's aggregates (aliases, mention count, alias trail) and all ``RELATED`` edges are
recomputed from mentions, ``REFERS_TO`` decisions and active triples, then the entity vector index is
rebuilt without the entities merges retired.
"""

from __future__ import annotations

from pydantic import BaseModel

from kgres.db import Database
from kgres.resolve.embed import reindex


class RebuildStats(BaseModel):
    entities: int
    vector_index_rebuilt: bool = False


def rebuild(db: Database, batch_size: int = 2000) -> RebuildStats:
    """Recompute aggregates and RELATED for every entity, page by page, then rebuild the entity
    vector index (:func:`kgres.resolve.embed.reindex`). Idempotent."""
    n = 0
    for ids in db.entity_ids(batch_size):
        db.write("resolve_merge_refresh", ids=ids)
        db.write("resolve_merge_related_delete", ids=ids)
        n += len(ids)
    for ids in db.entity_ids(batch_size):
        db.write("resolve_merge_related_rebuild", ids=ids)
    return RebuildStats(entities=n, vector_index_rebuilt=reindex(db))
