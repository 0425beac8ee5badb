"""What mentions' ``attributes`` say: every (key, value) for the match model's attribute comparisons,
and the identifiers among them (an ORCID, a Wikidata id, an ISBN...). One identifier is one thing:
equal values mean one entity, different values under one key mean two.

Contact details (email, URL, phone) identify too, but people and firms have several and extractors
garble them: they are compared like other attributes (strong evidence when equal), never a
cannot-link."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

# Attribute keys that identify a thing: equal values mean one entity, different values two.
IDENTIFIER_KEYS = frozenset({"wikidata", "wikidata_id", "qid", "orcid", "isbn", "issn", "doi", "lei", "duns",
                             "ticker", "cik", "freebase_id", "mid", "viaf", "gnd", "imdb_id", "external_id"})
# What importers keep about an extraction, not about the thing: never compared.
METADATA_KEYS = frozenset({"frequency", "degree", "human_readable_id", "inferred_from", "rank", "community",
                           "level", "node_degree", "source_id", "chunk_id", "weight", "clusters", "x", "y"})
MAX_VALUES = 5  # values kept per attribute key and entity (a merged entity collects its mentions')


def attribute_key(key: object) -> str:
    """An attribute key as compared: trimmed, lower case, spaces and dashes as underscores."""
    return str(key).strip().lower().replace(" ", "_").replace("-", "_")


def attributes_of(attributes_json: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(normalised key, value) of every scalar attribute in mentions' ``attributes_json``, at most
    MAX_VALUES distinct values per key, sorted (nested values and empty strings are left out)."""
    values: dict[str, set[str]] = {}
    for key, v in _items(attributes_json):
        if isinstance(v, bool) or not isinstance(v, (str, int, float)):
            continue
        text = str(v).strip()
        if text and key not in METADATA_KEYS:
            values.setdefault(key, set()).add(text)
    return tuple((k, v) for k in sorted(values) for v in sorted(values[k])[:MAX_VALUES])


def identifiers_of(attributes_json: Sequence[str]) -> frozenset[tuple[str, str]]:
    """(key, normalised value) pairs of identifying attributes in mentions' ``attributes_json``."""
    out = set()
    for key, v in _items(attributes_json):
        if key in IDENTIFIER_KEYS and isinstance(v, (str, int)) and str(v).strip():
            value = str(v).strip().lower()
            if key in ("url", "website", "homepage"):
                value = value.split("://", 1)[-1].removeprefix("www.").rstrip("/")
            out.add((key, value))
    return frozenset(out)


def _items(attributes_json: Sequence[str]) -> Iterator[tuple[str, Any]]:
    """(normalised key, raw value) of every attribute of mentions' ``attributes_json`` objects;
    a string that is not a JSON object is skipped (the importers validated what they wrote)."""
    for raw in attributes_json:
        try:
            attrs = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if isinstance(attrs, dict):
            for k, v in attrs.items():
                yield attribute_key(k), v


def identifier_conflict(a: frozenset[tuple[str, str]], b: frozenset[tuple[str, str]]) -> str | None:
    """"orcid 0000-1 vs 0000-2" when both carry a key with no value in common."""
    for key in sorted({k for k, _ in a} & {k for k, _ in b}):
        va, vb = {v for k, v in a if k == key}, {v for k, v in b if k == key}
        if not va & vb:
            return f"{key} {min(va)} vs {min(vb)}"
    return None
