"""Write a validated :class:`Source` into Neo4j in UNWIND batches: documents, chunks, mentions, triples.

Every statement is an idempotent MERGE keyed by namespaced ids (``<source>:<input id>``), so
re-ingesting the same input creates nothing. The IngestRun node says ``running`` until the last batch.
An import that fails midway removes what it wrote (:mod:`kgres.ingest.rollback`); one killed midway
(or whose removal failed: the database went down) is finished by running it again or removed by
``kgres rollback <ingest run id>``, and until then ``resolve`` refuses to run on the partial graph.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from typing import Any

from kgres import __version__
from kgres.db import Database
from kgres.errors import KgresError
from kgres.ingest.base import MAX_KEY_CHARS, IngestStats, Source
from kgres.ingest.rollback import rollback

Progress = Callable[[str, int], None]


def write(db: Database, src: Source, source: str, batch_size: int = 5000,
          on_progress: Progress = lambda kind, n: None) -> IngestStats:
    """Ingest ``src`` under the namespace ``source``; return counts read and created."""
    started = time.perf_counter()
    input_hash = src.input_hash()
    run_id = f"ingest:{source}:{input_hash[:16]}"
    before = db.query("ingest_run_start", run_id=run_id, source=source, format=src.format, path=str(src.path),
                      input_hash=input_hash, kgres_version=__version__)[0]["before"]
    if before == "rolling_back":
        raise KgresError(f"the rollback of import {run_id} was interrupted: run 'kgres rollback {run_id}' to "
                         "finish it, then ingest again")
    try:
        created = _write_all(db, src, source, run_id, batch_size, on_progress)
    except BaseException as e:
        if before != "done":  # a finished import that is read again writes nothing: nothing to undo
            _undo(db, run_id, e)
        raise
    db.write("ingest_run_finish", run_id=run_id, stats_json=json.dumps(src.counts, sort_keys=True))
    if created["nodes_created"]:  # plans made while the database was empty must not outlive the load
        counts = db.read("db_count")[0]
        db.replan_if_bulk(created["nodes_created"], sum(counts[k] for k in ("Entity", "Mention", "Chunk", "Document")))
    return IngestStats(format=src.format, source=source, path=str(src.path), run_id=run_id,
                       documents=src.counts.get("documents", 0), chunks=src.counts.get("chunks", 0),
                       mentions=src.counts.get("mentions", 0),
                       inferred_mentions=src.counts.get("inferred_mentions", 0),
                       triples=src.counts.get("triples", 0), seconds=round(time.perf_counter() - started, 3),
                       notes=src.notes, **created)


def _write_all(db: Database, src: Source, source: str, run_id: str,
               batch_size: int, on_progress: Progress) -> dict[str, int]:
    """Write every batch of ``src``; return the nodes and relationships created."""
    ns = _Namespace(source)
    created = {"nodes_created": 0, "relationships_created": 0}
    steps = [("documents", src.documents, ns.document), ("chunks", src.chunks, ns.chunk),
             ("mentions", src.mentions, ns.mention), ("triples", src.triples, ns.triple)]
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="kgres-ingest") as pool:
        for kind, rows, convert in steps:
            # One batch in flight while the next is parsed: the server writes while Python reads.
            # Kinds stay strictly ordered (triples need their mentions), so we drain between kinds.
            pending: Future | None = None
            for batch in _batches((convert(r) for r in rows()), batch_size):
                if pending is not None:
                    _collect(pending, created, kind, on_progress)
                pending = pool.submit(_write_batch, db, kind, batch, source, run_id)
            if pending is not None:
                _collect(pending, created, kind, on_progress)
    return created


def _undo(db: Database, run_id: str, error: BaseException) -> None:
    """A failed or interrupted import removes what it wrote; if that fails too (the database is
    down), the next resolve refuses to run on the partial graph and names the ways out."""
    try:
        rollback(db, run_id)
    except Exception as e:  # the original error is the one to report
        error.add_note(f"what it wrote could not be removed ({e}): ingest again to finish it, "
                       f"or 'kgres rollback {run_id}' to remove it")
    else:
        error.add_note(f"import {run_id} was rolled back: nothing of it is left")


def _write_batch(db: Database, kind: str, batch: list[dict[str, Any]], source: str,
                 run_id: str) -> tuple[dict[str, int], int]:
    extra = {"max_key": MAX_KEY_CHARS} if kind == "mentions" else {}
    return db.write(f"ingest_{kind}", rows=batch, source=source, run_id=run_id, **extra), len(batch)


def _collect(done: Future, created: dict[str, int], kind: str, on_progress: Progress) -> None:
    counters, n = done.result()  # re-raises a failed write here, before anything later is sent
    for k in created:
        created[k] += counters[k]
    on_progress(kind, n)


class _Namespace:
    """Turns input ids into database ids: ``<source>:<key>``, so two inputs never collide."""

    def __init__(self, source: str) -> None:
        self.p = source + ":"

    def id(self, key: str | None) -> str | None:
        return None if key is None else self.p + key

    def document(self, r: dict[str, Any]) -> dict[str, Any]:
        return {"id": self.id(r["key"]), "key": r["key"], "title": r.get("title"), "source": r.get("source"),
                "text": r.get("text"), "attributes_json": _attributes_json(r.get("attributes"))}

    def chunk(self, r: dict[str, Any]) -> dict[str, Any]:
        return {"id": self.id(r["key"]), "key": r["key"], "document_id": self.id(r.get("document_key")),
                "document_key": r.get("document_key"), "index": r.get("index"), "text": r.get("text")}

    def mention(self, r: dict[str, Any]) -> dict[str, Any]:
        from kgres.resolve.block import mention_values  # kgres.resolve imports the importers

        attributes = _attributes_json(r["attributes"])
        return {"id": self.id(r["key"]), "key": r["key"], "name": r["name"], "type": r.get("type"),
                "description": r.get("description"), "chunk_ids": [self.id(k) for k in r["chunk_keys"]],
                "document_ids": [self.id(k) for k in r["document_keys"]], "span_start": r.get("span_start"),
                "span_end": r.get("span_end"), "inferred": r["inferred"],
                "attributes_json": attributes, "block_values": mention_values(r["name"], attributes)}

    def triple(self, r: dict[str, Any]) -> dict[str, Any]:
        return {"id": self.id(r["key"]), "key": r["key"], "subject_id": self.id(r["subject_key"]),
                "object_id": self.id(r["object_key"]), "predicate": r["predicate"],
                "description": r.get("description"), "weight": r.get("weight"),
                "chunk_ids": [self.id(k) for k in r.get("chunk_keys", [])]}


def _batches(rows: Iterator[dict[str, Any]], size: int) -> Iterator[list[dict[str, Any]]]:
    it = iter(rows)
    while batch := list(islice(it, size)):
        yield batch


def _attributes_json(attributes: dict[str, Any] | None) -> str | None:
    """A record's free-form attributes as one JSON string property (None when there are none)."""
    return json.dumps(attributes, sort_keys=True, default=str) if attributes else None
