"""``kgres ingest FORMAT PATH``: bring an LLM-built graph into the mention/triple model.

Each importer (one module per format) validates the whole input first and raises
:class:`~kgres.errors.InputError` naming file, line/row and field, so bad input writes nothing.
The shared writer then upserts in UNWIND batches; see :mod:`kgres.ingest.writer`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from kgres.db import Database
from kgres.errors import InputError
from kgres.ingest import graphml, graphrag, jsonl, kggen
from kgres.ingest.base import IngestStats, Source, validate
from kgres.ingest.writer import Progress, write

READERS: dict[str, Callable[[Path], Source]] = {
    "jsonl": jsonl.read,
    "graphrag": graphrag.read,
    "graphml": graphml.read,
    "kggen": kggen.read,
}
_SOURCE_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,64}$")


def read(fmt: str, path: Path) -> Source:
    """Parse and validate ``path`` as ``fmt`` without touching the database."""
    if fmt not in READERS:
        raise InputError(f"unknown format {fmt!r}; expected one of {', '.join(READERS)}")
    if not Path(path).exists():
        raise InputError("no such file or folder", path=path)
    return validate(READERS[fmt](Path(path)))


def ingest(db: Database, fmt: str, path: Path, *, source: str | None = None, batch_size: int = 5000,
           on_read: Callable[[Source], None] = lambda s: None, on_progress: Progress = lambda k, n: None) -> IngestStats:
    """Validate ``path`` as ``fmt``, then write it under the namespace ``source`` (default: the format).

    Args:
        source: namespace for this input's ids, so two inputs in one format can coexist
            (``--source carol-graphrag``). Letters, digits, ``_ . -``.
        on_read: called once with the validated source (e.g. to size a progress bar).
        on_progress: called with (kind, rows) after each batch is committed.

    Raises:
        InputError: the input is malformed (nothing is written).
        DatabaseError / DatabaseUnavailable: a write failed; rerun the same command to finish.
    """
    source = source or fmt
    if not _SOURCE_NAME.match(source):
        raise InputError(f"invalid source name {source!r}: use 1-64 letters, digits, '_', '.', '-'")
    src = read(fmt, path)
    on_read(src)
    return write(db, src, source, batch_size=batch_size, on_progress=on_progress)


def ingest_records(db: Database, records: list[dict], *, source: str = "api", batch_size: int = 5000) -> IngestStats:
    """Validate and write interchange records (what a JSONL file holds, one dict per line) given in
    memory, as ``kgres serve``'s ``POST /mentions`` receives them.

    Raises:
        InputError: a record is malformed; ``line`` is its position in ``records`` counted from 1,
            ``path`` is ``"records"``. Nothing is written.
    """
    import json
    import tempfile

    with tempfile.TemporaryDirectory(prefix="kgres-records-") as tmp:
        path = Path(tmp) / "records.jsonl"
        try:
            text = "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n" for r in records)
        except ValueError as e:  # NaN or infinity: not JSON
            raise InputError(f"not valid JSON: {e}", path="records") from e
        path.write_text(text, encoding="utf-8")
        try:
            return ingest(db, "jsonl", path, source=source, batch_size=batch_size)
        except InputError as e:
            if e.path is None or Path(e.path) != path:
                raise
            raise InputError(e.reason, path="records", line=e.line, field=e.field) from e


__all__ = ["READERS", "IngestStats", "Source", "ingest", "ingest_records", "read"]
