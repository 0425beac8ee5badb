"""nano-graphrag / LightRAG ``graph_chunk_entity_relation.graphml`` (+ ``kv_store_text_chunks.json``).

Nodes are entities already grouped by name: each becomes one Mention whose input id is the GraphML
node id. nano-graphrag stores strings wrapped in double quotes (``"SCROOGE"``) and joins values from
several chunks with ``<SEP>``: names and types are unquoted, descriptions become one line per part,
and ``source_id`` parts become chunk links. With ``kv_store_text_chunks.json`` beside the file (or
PATH being the working folder that holds both), chunks and their documents are ingested too.
Edges carry no predicate: they get ``related_to`` and keep their description.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from kgres.errors import InputError
from kgres.ingest.base import Source, inferred_mention, mention, triple_key, weight

GRAPHML = "graph_chunk_entity_relation.graphml"
CHUNKS = "kv_store_text_chunks.json"
SEP = "<SEP>"
PREDICATE = "related_to"
_NS = "{http://graphml.graphdrawing.org/xmlns}"


def read(path: Path) -> Source:
    """Validate a GraphML file (or a folder holding ``graph_chunk_entity_relation.graphml``).

    Raises:
        InputError: missing or malformed XML (with line), node without id, edge without endpoints,
            malformed chunk store.
    """
    path = Path(path)
    graphml = path / GRAPHML if path.is_dir() else path
    if not graphml.is_file():
        raise InputError(f"no GraphML file (expected a .graphml file or a folder holding {GRAPHML})", path=path)
    try:
        root = ET.parse(graphml).getroot()
    except ET.ParseError as e:
        raise InputError(f"malformed XML: {e}", path=graphml, line=e.position[0]) from e
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror}", path=graphml) from e
    if root.tag != f"{_NS}graphml":
        raise InputError(f"not GraphML: root element is <{root.tag}>", path=graphml)
    keys = {k.get("id"): (k.get("attr.name"), k.get("attr.type")) for k in root.iter(f"{_NS}key")}

    chunk_file = graphml.parent / CHUNKS
    chunks, documents, chunk_doc = _chunks(chunk_file) if chunk_file.is_file() else ([], [], {})

    mentions, known = [], set()
    for i, node in enumerate(root.iter(f"{_NS}node"), 1):
        nid = node.get("id")
        if not nid:
            raise InputError("node without an id", path=graphml, line=i, field="id")
        if nid in known:
            raise InputError(f"duplicate node id {nid!r}", path=graphml, field="id")
        known.add(nid)
        d = _data(node, keys)
        units = _split(d.get("source_id"))
        docs = sorted({chunk_doc[u] for u in units if chunk_doc.get(u)})
        attrs = {k: v for k, v in d.items() if k not in ("entity_type", "description", "source_id")}
        mentions.append(mention(nid, _unquote(nid), type=_unquote(d.get("entity_type")) or None,
                                description="\n".join(_split(d.get("description"))) or None,
                                chunk_keys=units, document_keys=docs, attributes=attrs))

    triples, inferred = [], {}
    for i, edge in enumerate(root.iter(f"{_NS}edge"), 1):
        src, tgt = edge.get("source"), edge.get("target")
        if not src or not tgt:
            raise InputError("edge without source or target", path=graphml, line=i,
                             field="source" if not src else "target")
        for end in (src, tgt):
            if end not in known and end not in inferred:
                m = inferred_mention(_unquote(end))
                m["key"] = end
                inferred[end] = m
        d = _data(edge, keys)
        triples.append({"key": edge.get("id") or triple_key(src, tgt), "subject_key": src, "object_key": tgt,
                        "predicate": PREDICATE, "description": "\n".join(_split(d.get("description"))) or None,
                        "weight": weight(d.get("weight"), path=graphml, line=i),
                        "chunk_keys": _split(d.get("source_id"))})
    mentions += list(inferred.values())
    notes = [f"{len(inferred)} edge endpoint(s) were not declared as nodes and were kept as inferred mentions"] \
        if inferred else []
    counts = {"documents": len(documents), "chunks": len(chunks), "mentions": len(mentions),
              "inferred_mentions": len(inferred), "triples": len(triples)}
    files = [graphml] + ([chunk_file] if chunk_file.is_file() else [])
    return Source(format="graphml", path=path, files=files, counts=counts, notes=notes,
                  documents=lambda: iter(documents), chunks=lambda: iter(chunks),
                  mentions=lambda: iter(mentions), triples=lambda: iter(triples))


def _data(el: ET.Element, keys: dict[str | None, tuple[str | None, str | None]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for d in el.iter(f"{_NS}data"):
        name, typ = keys.get(d.get("key"), (d.get("key"), "string"))
        text = d.text or ""
        if typ in ("double", "float"):
            try:
                out[name] = float(text)
            except ValueError:
                out[name] = text
        elif typ in ("int", "long"):
            out[name] = int(text) if text.strip().lstrip("-").isdigit() else text
        else:
            out[name] = text
    return out


def _unquote(s: str | None) -> str | None:
    if s is None:
        return None
    s = s.strip()
    return s[1:-1].strip() if len(s) >= 2 and s[0] == s[-1] == '"' else s


def _split(s: Any) -> list[str]:
    if not isinstance(s, str):
        return []
    return [p for part in s.split(SEP) if (p := _unquote(part))]


def _chunks(path: Path) -> tuple[list[dict], list[dict], dict[str, str]]:
    try:
        store = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError(f"invalid JSON: {e.msg}", path=path, line=e.lineno) from e
    except UnicodeDecodeError as e:
        raise InputError(f"not UTF-8 text ({e.reason} at byte {e.start})", path=path) from e
    except RecursionError as e:
        raise InputError("JSON nested too deeply", path=path) from e
    except OSError as e:
        raise InputError(f"cannot read file: {e.strerror}", path=path) from e
    if not isinstance(store, dict):
        raise InputError("expected a JSON object of chunk id -> chunk", path=path)
    chunks, docs, chunk_doc = [], {}, {}
    for key, c in store.items():
        if not isinstance(c, dict) or not isinstance(c.get("content"), str):
            raise InputError(f"chunk {key!r} has no string 'content'", path=path, field="content")
        doc = c.get("full_doc_id")
        chunk_doc[key] = doc
        if doc:
            docs.setdefault(doc, {"key": doc, "title": None, "source": None, "text": None})
        idx = c.get("chunk_order_index")
        chunks.append({"key": key, "document_key": doc, "index": int(idx) if str(idx).isdigit() else None,
                       "text": c["content"]})
    return chunks, list(docs.values()), chunk_doc
