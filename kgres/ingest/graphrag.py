"""Microsoft GraphRAG output folder: ``entities.parquet`` and ``relationships.parquet`` (required),
``text_units.parquet`` and ``documents.parquet`` (optional).

GraphRAG has already grouped extractions by title, so each entity row becomes one Mention (its
``id`` is the mention's input id). Relationships name their endpoints by *title*; GraphRAG drops a
relationship whose endpoint has no entity row, kgres keeps it and adds an inferred mention instead.
Column names differ across GraphRAG versions; each field accepts the variants listed in
``_COLUMNS`` (first match wins). GraphRAG relationships carry no predicate: they get
``related_to`` and keep their description.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from kgres.errors import InputError
from kgres.ingest.base import Source, inferred_mention, mention, triple_key, weight

PREDICATE = "related_to"

# field -> accepted column names, per table. Required fields have no default in _REQUIRED.
_COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "entities": {"id": ("id",), "title": ("title", "name"), "type": ("type", "entity_type"),
                 "description": ("description",), "text_unit_ids": ("text_unit_ids", "source_id"),
                 "frequency": ("frequency",), "degree": ("degree", "rank"),
                 "human_readable_id": ("human_readable_id",)},
    "relationships": {"id": ("id",), "source": ("source",), "target": ("target",),
                      "description": ("description",), "weight": ("weight",),
                      "text_unit_ids": ("text_unit_ids", "source_id")},
    "text_units": {"id": ("id",), "text": ("text", "chunk"), "document_ids": ("document_ids", "document_id"),
                   "human_readable_id": ("human_readable_id",)},
    "documents": {"id": ("id",), "title": ("title",), "text": ("text",)},
}
_REQUIRED = {"entities": ("id", "title"), "relationships": ("source", "target"),
             "text_units": ("id", "text"), "documents": ("id",)}


def read(folder: Path) -> Source:
    """Validate a GraphRAG output folder; return a :class:`Source`.

    Raises:
        InputError: missing folder or table, unreadable parquet, missing required column, bad values.
    """
    folder = Path(folder)
    if not folder.is_dir():
        raise InputError("not a folder; the graphrag format takes GraphRAG's output folder", path=folder)
    tables = {name: _table(folder, name, required=name in ("entities", "relationships"))
              for name in ("entities", "relationships", "text_units", "documents")}

    unit_docs: dict[str, list[str]] = {}
    chunks = []
    for i, r in enumerate(tables["text_units"] or []):
        docs = _strings(r.get("document_ids"), folder / "text_units.parquet", "document_ids", i)
        unit_docs[r["id"]] = docs
        chunks.append({"key": r["id"], "document_key": docs[0] if docs else None,
                       "index": _int(r.get("human_readable_id")), "text": r["text"]})
    documents = [{"key": r["id"], "title": r.get("title"), "source": None, "text": r.get("text")}
                 for r in tables["documents"] or []]

    by_title: dict[str, str] = {}
    mentions = []
    seen_ids: set[str] = set()
    duplicate_titles = 0
    for i, r in enumerate(tables["entities"]):
        if r["id"] in seen_ids:
            raise InputError(f"duplicate entity id {r['id']!r}", path=folder / "entities.parquet", line=i + 1, field="id")
        seen_ids.add(r["id"])
        units = _strings(r.get("text_unit_ids"), folder / "entities.parquet", "text_unit_ids", i)
        docs = sorted({d for u in units for d in unit_docs.get(u, [])})
        attrs = {k: v for k in ("frequency", "degree", "human_readable_id") if (v := _scalar(r.get(k))) is not None}
        mentions.append(mention(r["id"], r["title"], type=r.get("type") or None, description=r.get("description"),
                                chunk_keys=units, document_keys=docs, attributes=attrs))
        if r["title"] in by_title:
            duplicate_titles += 1
        else:
            by_title[r["title"]] = r["id"]

    triples, inferred = [], {}
    for i, r in enumerate(tables["relationships"]):
        ends = []
        for side in ("source", "target"):
            title = r[side]
            if title not in by_title and title not in inferred:
                inferred[title] = inferred_mention(title)
            ends.append(by_title[title] if title in by_title else inferred[title]["key"])
        key = _text_id(r.get("id")) or triple_key(r["source"], PREDICATE, r["target"], i)
        w = weight(_scalar(r.get("weight")), path=folder / "relationships.parquet", line=i + 1)
        triples.append({"key": key, "subject_key": ends[0], "object_key": ends[1], "predicate": PREDICATE,
                        "description": r.get("description"), "weight": w,
                        "chunk_keys": _strings(r.get("text_unit_ids"), folder / "relationships.parquet", "text_unit_ids", i)})
    mentions += list(inferred.values())

    notes = []
    if inferred:
        notes.append(f"{len(inferred)} relationship endpoint(s) had no entity row and were kept as inferred "
                     "mentions (GraphRAG would drop these relationships)")
    if duplicate_titles:
        notes.append(f"{duplicate_titles} entity title(s) appear on several rows; relationships attach to the first")
    counts = {"documents": len(documents), "chunks": len(chunks), "mentions": len(mentions),
              "inferred_mentions": len(inferred), "triples": len(triples)}
    files = [folder / f"{n}.parquet" for n, t in tables.items() if t is not None]
    return Source(format="graphrag", path=folder, files=files, counts=counts, notes=notes,
                  documents=lambda: iter(documents), chunks=lambda: iter(chunks),
                  mentions=lambda: iter(mentions), triples=lambda: iter(triples))


def _table(folder: Path, name: str, required: bool) -> list[dict[str, Any]] | None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = folder / f"{name}.parquet"
    if not path.is_file():
        if required:
            raise InputError(f"missing {name}.parquet (GraphRAG output folders have entities.parquet and "
                             "relationships.parquet)", path=folder)
        return None
    try:
        table = pq.read_table(path)
    except (OSError, pa.ArrowException) as e:
        raise InputError(f"not a readable parquet file: {e}", path=path) from e
    present = set(table.column_names)
    chosen = {}
    for fld, variants in _COLUMNS[name].items():
        col = next((v for v in variants if v in present), None)
        if col is None and fld in _REQUIRED[name]:
            raise InputError(f"missing column; expected one of {', '.join(variants)} (found: "
                             f"{', '.join(sorted(present))})", path=path, field=fld)
        if col is not None:
            chosen[fld] = col
    rows = table.select(list(chosen.values())).to_pylist()
    out = []
    for i, raw in enumerate(rows):
        r = {fld: raw[col] for fld, col in chosen.items()}
        for fld in _REQUIRED[name]:
            if not isinstance(r[fld], str) or not r[fld].strip():
                raise InputError(f"expected a non-empty string, got {r[fld]!r}", path=path, line=i + 1,
                                 field=chosen[fld])
        for fld in ("description", "type", "title", "text"):
            if fld in r and r[fld] is not None and not isinstance(r[fld], str):
                raise InputError(f"expected a string, got {type(r[fld]).__name__}", path=path, line=i + 1,
                                 field=chosen[fld])
        out.append(r)
    return out


def _strings(v: Any, path: Path, fld: str, i: int) -> list[str]:
    """A list column (or a single id, or a comma-separated string in old versions) as list[str];
    anything else is an InputError naming ``path``, the row and the field."""
    if v is None:
        return []
    if isinstance(v, str):
        return [s.strip() for s in v.split(",") if s.strip()]
    if isinstance(v, (list, tuple)) and all(isinstance(s, str) for s in v):
        return list(v)
    raise InputError(f"expected a list of ids, got {type(v).__name__}", path=path, line=i + 1, field=fld)


def _scalar(v: Any) -> Any:
    if isinstance(v, float) and math.isnan(v):
        return None
    return v


def _int(v: Any) -> int | None:
    try:
        return None if v is None else int(v)
    except (TypeError, ValueError):
        return None


def _text_id(value: Any) -> str | None:
    """An id column read as text (GraphRAG versions write ids as strings; some tables carry integers)."""
    if value is None or (isinstance(value, float) and value != value):
        return None
    return str(value)
