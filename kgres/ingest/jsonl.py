"""The kgres interchange format: JSON Lines, one record per line, ``kind`` says which.

::

    {"kind": "document", "id": "d1", "title": "A Study in Scarlet", "source": "gutenberg", "text": "...",
     "attributes": {"year": 1887}}
    {"kind": "chunk", "id": "c1", "document_id": "d1", "index": 0, "text": "..."}
    {"kind": "mention", "id": "m1", "name": "Sherlock Holmes", "type": "PERSON", "description": "...",
     "chunk_id": "c1", "document_id": "d1", "span": [10, 25], "attributes": {"born": "1854"}}
    {"kind": "triple", "id": "t1", "subject": "m1", "predicate": "LIVES_AT", "object": "m2",
     "description": "...", "weight": 1.0, "chunk_id": "c1"}

Required: ``id`` (except triples) and ``name`` / ``text`` / ``subject``+``predicate``+``object``.
A mention may list ``chunk_ids`` instead of one ``chunk_id``. Unknown fields are errors (a typo
must not silently drop data). Blank lines are skipped. A triple whose subject or object id has no
mention line gets an inferred mention named after that id. A triple without ``id`` gets a stable
one hashed from its fields, so identical triples collapse into one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, FiniteFloat, StrictStr, ValidationError, field_validator

from kgres.errors import InputError
from kgres.ingest.base import Source, inferred_mention, mention, triple_key

NonEmpty = Annotated[StrictStr, Field(min_length=1)]


class _Rec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DocumentRec(_Rec):
    kind: Literal["document"]
    id: NonEmpty
    title: StrictStr | None = None
    source: StrictStr | None = None
    text: StrictStr | None = None
    attributes: dict[str, Any] | None = None  # metadata (GraphRAG documents carry some), kept as JSON


class ChunkRec(_Rec):
    kind: Literal["chunk"]
    id: NonEmpty
    document_id: NonEmpty | None = None
    index: int | None = None
    text: StrictStr


class MentionRec(_Rec):
    kind: Literal["mention"]
    id: NonEmpty
    name: NonEmpty
    type: StrictStr | None = None
    description: StrictStr | None = None
    chunk_id: NonEmpty | None = None
    chunk_ids: list[NonEmpty] | None = None
    document_id: NonEmpty | None = None
    span: tuple[int, int] | None = None
    attributes: dict[str, Any] | None = None

    @field_validator("name")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ValueError("must not be blank")
        return v


class TripleRec(_Rec):
    kind: Literal["triple"]
    id: NonEmpty | None = None
    subject: NonEmpty
    predicate: NonEmpty
    object: NonEmpty
    description: StrictStr | None = None
    weight: FiniteFloat | None = None  # NaN and infinity refused: they would print as invalid JSON
    chunk_id: NonEmpty | None = None


_MODELS: dict[str, type[_Rec]] = {"document": DocumentRec, "chunk": ChunkRec, "mention": MentionRec,
                                  "triple": TripleRec}


def read(path: Path) -> Source:
    """Validate a kgres JSONL file completely; return a :class:`Source` that re-reads it to write.

    Raises:
        InputError: unreadable file, bad JSON, unknown kind or field, wrong type, duplicate id —
            naming the file, line and field.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError("is a folder; the jsonl format takes one .jsonl file", path=path)
    counts = {"documents": 0, "chunks": 0, "mentions": 0, "triples": 0}
    mention_lines: dict[str, int] = {}
    ids: dict[str, dict[str, int]] = {"document": {}, "chunk": {}}
    chunk_doc: dict[str, str | None] = {}
    endpoints: dict[str, int] = {}
    for line_no, rec in _records(path):
        kind = rec.kind
        if kind == "mention":
            _unique(mention_lines, rec.id, line_no, path, "mention")
        elif kind in ids:
            _unique(ids[kind], rec.id, line_no, path, kind)
            if kind == "chunk":
                chunk_doc[rec.id] = rec.document_id
        elif kind == "triple":
            endpoints.setdefault(rec.subject, line_no)
            endpoints.setdefault(rec.object, line_no)
        counts[kind + "s"] += 1
    inferred = sorted(k for k in endpoints if k not in mention_lines)
    counts["inferred_mentions"] = len(inferred)
    counts["mentions"] += len(inferred)
    notes = [f"{len(inferred)} triple endpoint(s) had no mention line and were kept as inferred mentions"] if inferred else []

    def rows(kind: str) -> Iterator[dict[str, Any]]:
        for rec in _records_of_kind(path, kind):
            yield _row(rec, chunk_doc)
        if kind == "mention":
            for key in inferred:
                m = inferred_mention(key)
                m["key"] = key  # the triple names this id; keep it so the triple finds it
                yield m

    return Source(format="jsonl", path=path, files=[path], counts=counts, notes=notes,
                  documents=lambda: rows("document"), chunks=lambda: rows("chunk"),
                  mentions=lambda: rows("mention"), triples=lambda: rows("triple"))


def _records(path: Path) -> Iterator[tuple[int, _Rec]]:
    try:
        fh = open(path, encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror}", path=path) from e
    with fh:
        line_no = 0
        try:
            for line_no, line in enumerate(fh, 1):
                if line.strip():
                    yield line_no, _parse(line, line_no, path)
        except UnicodeDecodeError as e:
            raise InputError(f"not UTF-8 text ({e.reason})", path=path, line=line_no + 1) from e


def _records_of_kind(path: Path, kind: str) -> Iterator[_Rec]:
    """Second pass over a file already validated by :func:`read`: only lines of ``kind`` are
    rebuilt into records (model_construct skips re-validation; defaults still apply)."""
    model = _MODELS[kind]
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                obj = json.loads(line)
                if obj["kind"] == kind:
                    if "span" in obj:
                        obj["span"] = tuple(obj["span"])
                    yield model.model_construct(**obj)


def _parse(line: str, line_no: int, path: Path) -> _Rec:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as e:
        raise InputError(f"invalid JSON: {e.msg} at column {e.colno}", path=path, line=line_no) from e
    except RecursionError as e:
        raise InputError("JSON nested too deeply", path=path, line=line_no) from e
    if not isinstance(obj, dict):
        raise InputError(f"expected a JSON object, got {type(obj).__name__}", path=path, line=line_no)
    kind = obj.get("kind")
    model = _MODELS.get(kind) if isinstance(kind, str) else None
    if model is None:
        raise InputError(f"unknown kind {kind!r}; expected one of {', '.join(_MODELS)}", path=path,
                         line=line_no, field="kind")
    try:
        return model.model_validate(obj)
    except RecursionError as e:
        raise InputError("value nested too deeply", path=path, line=line_no) from e
    except ValidationError as e:
        err = e.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        msg = "unknown field" if err["type"] == "extra_forbidden" else err["msg"].lower()
        raise InputError(msg, path=path, line=line_no, field=field) from e


def _unique(seen: dict[str, int], key: str, line_no: int, path: Path, kind: str) -> None:
    if key in seen:
        raise InputError(f"duplicate {kind} id {key!r} (first on line {seen[key]})", path=path, line=line_no,
                         field="id")
    seen[key] = line_no


def _row(rec: _Rec, chunk_doc: dict[str, str | None]) -> dict[str, Any]:
    if isinstance(rec, DocumentRec):
        return {"key": rec.id, "title": rec.title, "source": rec.source, "text": rec.text,
                "attributes": rec.attributes}
    if isinstance(rec, ChunkRec):
        return {"key": rec.id, "document_key": rec.document_id, "index": rec.index, "text": rec.text}
    if isinstance(rec, MentionRec):
        chunks = list(rec.chunk_ids or []) + ([rec.chunk_id] if rec.chunk_id else [])
        docs = {rec.document_id} if rec.document_id else set()
        docs |= {d for c in chunks if (d := chunk_doc.get(c))}
        return mention(rec.id, rec.name, type=rec.type, description=rec.description, chunk_keys=chunks,
                       document_keys=sorted(docs), span_start=rec.span[0] if rec.span else None,
                       span_end=rec.span[1] if rec.span else None, attributes=rec.attributes)
    assert isinstance(rec, TripleRec)
    key = rec.id or triple_key(rec.subject, rec.predicate, rec.object, rec.chunk_id)
    return {"key": key, "subject_key": rec.subject, "object_key": rec.object, "predicate": rec.predicate,
            "description": rec.description, "weight": None if rec.weight is None else float(rec.weight),
            "chunk_keys": [rec.chunk_id] if rec.chunk_id else []}
