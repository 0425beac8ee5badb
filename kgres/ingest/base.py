"""What every importer hands the writer: a validated :class:`Source` of plain row dicts.

Importers read and check the *whole* input before anything is written (so malformed input leaves
the database untouched), then expose each kind of record as a re-iterable stream of rows keyed by the
ids the input itself uses. Row shapes (``None`` where the input has nothing):

    document: {key, title, source, text}
    chunk:    {key, document_key, index, text}
    mention:  {key, name, type, description, chunk_keys, document_keys, span_start, span_end,
               attributes (dict), inferred (bool)}
    triple:   {key, subject_key, object_key, predicate, description, weight, chunk_keys}

A triple endpoint with no mention row becomes a mention with ``inferred=True`` (named after the
endpoint) instead of being dropped, as GraphRAG does; importers count those.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from kgres.db import MAX_INDEXED_CHARS
from kgres.errors import InputError

Rows = Callable[[], Iterator[dict[str, Any]]]


def _none() -> Iterator[dict[str, Any]]:
    return iter(())


@dataclass
class Source:
    """A validated input, ready for :func:`kgres.ingest.writer.write`."""

    format: str
    path: Path
    files: list[Path]
    counts: dict[str, int]
    documents: Rows = _none
    chunks: Rows = _none
    mentions: Rows = _none
    triples: Rows = _none
    notes: list[str] = field(default_factory=list)

    def input_hash(self) -> str:
        """sha256 over the input files' names and bytes: the identity of this input."""
        h = hashlib.sha256(self.format.encode())
        for f in sorted(self.files):
            h.update(f.name.encode())
            with open(f, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
        return h.hexdigest()


class IngestStats(BaseModel):
    """What one ingest read and what it changed in the database."""

    format: str
    source: str
    path: str
    run_id: str
    documents: int
    chunks: int
    mentions: int
    inferred_mentions: int
    triples: int
    nodes_created: int
    relationships_created: int
    seconds: float
    notes: list[str] = []


# Ids and types are indexed, and Neo4j refuses an oversized one only after the ingest has begun:
# longer ones are refused up front. Names may be longer: their indexed keys are cut instead.
MAX_KEY_CHARS = MAX_INDEXED_CHARS
INT64 = (-(2 ** 63), 2 ** 63 - 1)
_KEYS = {"documents": ("key",), "chunks": ("key", "document_key"), "mentions": ("key", "type"),
         "triples": ("key", "subject_key", "object_key")}
_KEY_LISTS = {"mentions": ("chunk_keys", "document_keys"), "triples": ("chunk_keys",)}
_INTS = {"chunks": ("index",), "mentions": ("span_start", "span_end")}


def validate(src: Source) -> Source:
    """Check what a database write would refuse, for every importer alike, before anything is written:
    ids and types are text of at most :data:`MAX_KEY_CHARS` characters, integers fit in 64 bits, and an
    id appears once per kind (twice only with the same content).

    Raises:
        InputError: naming the file, the kind and id of the record, and the field.
    """
    for kind, rows in (("documents", src.documents), ("chunks", src.chunks), ("mentions", src.mentions),
                       ("triples", src.triples)):
        seen: dict[str, int] = {}
        for r in rows():
            where = f"{kind[:-1]} {str(r.get('key'))[:80]!r}"
            for f in _KEYS[kind]:
                _check_key(r.get(f), src.path, where, f, required=f == "key")
            for f in _KEY_LISTS.get(kind, ()):
                for v in r.get(f) or ():
                    _check_key(v, src.path, where, f, required=True)
            for f in _INTS.get(kind, ()):
                v = r.get(f)
                if v is not None and not (isinstance(v, int) and INT64[0] <= v <= INT64[1]):
                    raise InputError(f"{where}: expected an integer within 64 bits, got {str(v)[:40]}",
                                     path=src.path, field=f)
            digest = hash(repr(sorted(r.items(), key=lambda kv: kv[0])))
            if seen.setdefault(r["key"], digest) != digest:
                raise InputError(f"{where}: the id appears twice with different content", path=src.path, field="id")
    return src


def _check_key(v: Any, path: Path, where: str, f: str, required: bool) -> None:
    if v is None and not required:
        return
    if not isinstance(v, str):
        raise InputError(f"{where}: expected text, got {type(v).__name__}", path=path, field=f)
    if len(v) > MAX_KEY_CHARS:
        raise InputError(f"{where}: {len(v):,} characters, more than the {MAX_KEY_CHARS:,} an indexed "
                         "value may have", path=path, field=f)


def triple_key(*parts: object) -> str:
    """A stable id for a triple the input gave no id: hash of its defining fields."""
    return "t" + hashlib.sha1("\x1f".join("" if p is None else str(p) for p in parts).encode()).hexdigest()[:20]


def mention(key: str, name: str, *, type: str | None = None, description: str | None = None,
            chunk_keys: Iterable[str] = (), document_keys: Iterable[str] = (), span_start: int | None = None,
            span_end: int | None = None, attributes: dict[str, Any] | None = None,
            inferred: bool = False) -> dict[str, Any]:
    """Build a mention row (see module docstring)."""
    return {"key": key, "name": name, "type": type, "description": description, "chunk_keys": list(chunk_keys),
            "document_keys": list(document_keys), "span_start": span_start, "span_end": span_end,
            "attributes": attributes or {}, "inferred": inferred}


def inferred_mention(name: str) -> dict[str, Any]:
    """A mention for a relation endpoint that has no entity row of its own."""
    return mention(f"inferred:{name}", name, inferred=True,
                   attributes={"inferred_from": "relation endpoint without an entity row"})


def weight(value: Any, *, path: Path | str, line: int | None, field: str = "weight") -> float | None:
    """A triple's weight as a finite number, None when absent.

    Raises:
        InputError: naming the file, line or row and field, for a value that is not a number or is
            NaN or infinite (it would reach ranking as a bare NaN and print as invalid JSON).
    """
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if isinstance(value, bool):
        raise InputError(f"weight {value!r} is not a number", path=path, line=line, field=field)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise InputError(f"weight {str(value)[:40]!r} is not a number", path=path, line=line, field=field) from None
    if not math.isfinite(number):
        raise InputError(f"weight {value!r} is not a finite number", path=path, line=line, field=field)
    return number
