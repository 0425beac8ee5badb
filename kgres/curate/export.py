"""``kgres export clusters``: the current resolution as one JSON line per entity.

``mention_ids`` are the ids the mentions had in the input (JSONL ``id``, GraphRAG entity ``id``,
GraphML node id), sorted; ``sources`` is present only when the graph holds several inputs.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from kgres.resolve.cluster import UnionFind
from kgres.db import Database


def clusters(db: Database, same_as: bool = False) -> Iterator[dict]:
    """Yield ``{"entity_id", "name", "type", "mention_ids": [...]}`` per Entity, streamed.

    ``same_as``: entities joined by ``SAME_AS`` links (synonym modes, the ``cosine`` strategy) count
    as one cluster, reported under the smallest entity id; only those rows are held in memory.
    """
    uf = UnionFind()
    if same_as:
        for r in db.stream("curate_export_same_as"):
            uf.union(r["a"], r["b"])
    linked: dict[str, list[dict]] = {}
    for r in db.stream("curate_export_clusters"):
        if r["entity_id"] in uf.parent:
            linked.setdefault(uf.find(r["entity_id"]), []).append(r)
        else:
            yield _row(r["entity_id"], r["name"], r["type"], r["mention_ids"], r["sources"])
    for root, rows in sorted(linked.items()):
        head = next(r for r in rows if r["entity_id"] == root)
        yield _row(root, head["name"], head["type"], [k for r in rows for k in r["mention_ids"]],
                   [s for r in rows for s in r["sources"]])


def _row(entity_id: str, name: str, type_: str | None, keys: list[str], sources: list[str]) -> dict:
    pairs = sorted(zip(keys, sources))
    row = {"entity_id": entity_id, "name": name, "type": type_, "mention_ids": [k for k, _ in pairs]}
    if len({s for _, s in pairs}) > 1:
        row["sources"] = [s for _, s in pairs]
    return row


def clusters_jsonl(db: Database, same_as: bool = False) -> Iterator[str]:
    for row in clusters(db, same_as):
        yield json.dumps(row, ensure_ascii=False)
