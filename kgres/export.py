"""``kgres export clusters``: the current resolution as one JSON line per entity.

``mention_ids`` are the ids the mentions had in the input (JSONL ``id``, GraphRAG entity ``id``,
GraphML node id), sorted; ``sources`` is present only when the graph holds several inputs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from kgres.db import Database


def clusters(db: Database) -> Iterator[dict]:
    """Yield ``{"entity_id", "name", "type", "mention_ids": [...]}`` per Entity, streamed."""
    for r in db.stream("export_clusters"):
        pairs = sorted(zip(r["mention_ids"], r["sources"]))
        row = {"entity_id": r["entity_id"], "name": r["name"], "type": r["type"],
               "mention_ids": [k for k, _ in pairs]}
        if len({s for _, s in pairs}) > 1:
            row["sources"] = [s for _, s in pairs]
        yield row


def clusters_jsonl(db: Database) -> Iterator[str]:
    for row in clusters(db):
        yield json.dumps(row, ensure_ascii=False)
