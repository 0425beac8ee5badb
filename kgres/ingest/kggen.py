"""KGGen JSON output: ``{"entities": [str], "relations": [[subject, predicate, object]], ...}``.

KGGen entities are bare strings, so each becomes a Mention whose input id is the string itself.
``edges``, ``entity_clusters`` and ``edge_clusters`` are accepted and ignored (kgres does its own
resolution); any other top-level key is an error. Relation endpoints that are not listed in
``entities`` become inferred mentions.
"""

from __future__ import annotations

import json
from pathlib import Path

from kgres.errors import InputError
from kgres.ingest.base import Source, inferred_mention, mention, triple_key

_KNOWN = {"entities", "relations", "edges", "entity_clusters", "edge_clusters", "entity_metadata"}


def read(path: Path) -> Source:
    """Validate a KGGen JSON file.

    Raises:
        InputError: unreadable file, invalid JSON (with line), missing/unknown keys, wrong shapes.
    """
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise InputError(f"invalid JSON: {e.msg} at column {e.colno}", path=path, line=e.lineno) from e
    except RecursionError as e:
        raise InputError("JSON nested too deeply", path=path) from e
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"cannot read file: {getattr(e, 'strerror', None) or e}", path=path) from e
    if not isinstance(data, dict):
        raise InputError("expected a JSON object with 'entities' and 'relations'", path=path)
    unknown = sorted(set(data) - _KNOWN)
    if unknown:
        raise InputError(f"unknown key(s) {', '.join(unknown)}; expected {', '.join(sorted(_KNOWN))}", path=path,
                         field=unknown[0])
    for k in ("entities", "relations"):
        if not isinstance(data.get(k), list):
            raise InputError("missing or not a list", path=path, field=k)
    names: list[str] = []
    for i, e in enumerate(data["entities"]):
        if not isinstance(e, str) or not e.strip():
            raise InputError(f"expected a non-empty string, got {e!r}", path=path, field=f"entities[{i}]")
        names.append(e)
    known = set(names)
    mentions = [mention(n, n) for n in dict.fromkeys(names)]
    triples, inferred = [], {}
    for i, r in enumerate(data["relations"]):
        if not (isinstance(r, list) and len(r) == 3 and all(isinstance(x, str) and x.strip() for x in r)):
            raise InputError(f"expected [subject, predicate, object] strings, got {r!r}", path=path,
                             field=f"relations[{i}]")
        s, p, o = r
        for end in (s, o):
            if end not in known and end not in inferred:
                m = inferred_mention(end)
                m["key"] = end
                inferred[end] = m
        triples.append({"key": triple_key(s, p, o), "subject_key": s, "object_key": o, "predicate": p,
                        "description": None, "weight": None, "chunk_keys": []})
    mentions += list(inferred.values())
    unique_triples = list({t["key"]: t for t in triples}.values())
    notes = [f"{len(inferred)} relation endpoint(s) were not in 'entities' and were kept as inferred mentions"] \
        if inferred else []
    counts = {"documents": 0, "chunks": 0, "mentions": len(mentions), "inferred_mentions": len(inferred),
              "triples": len(unique_triples)}
    return Source(format="kggen", path=path, files=[path], counts=counts, notes=notes,
                  mentions=lambda: iter(mentions), triples=lambda: iter(unique_triples))
