"""Identifiers in mentions' attributes: an ORCID, a Wikidata id, an ISBN, a URL... One identifier is
one thing: equal values mean one entity, different values under one key mean two."""

from __future__ import annotations

import json
from collections.abc import Sequence

# Attribute keys that identify a thing: equal values mean one entity, different values two.
IDENTIFIER_KEYS = frozenset({"wikidata", "wikidata_id", "qid", "orcid", "isbn", "issn", "doi", "lei", "duns",
                             "ticker", "cik", "email", "url", "website", "homepage", "freebase_id", "mid",
                             "viaf", "gnd", "imdb_id", "external_id"})


def identifiers_of(attributes_json: Sequence[str]) -> frozenset[tuple[str, str]]:
    """(key, normalised value) pairs of identifying attributes in mentions' ``attributes_json``."""
    out = set()
    for raw in attributes_json:
        try:
            attrs = json.loads(raw)
        except (TypeError, ValueError):
            continue
        if not isinstance(attrs, dict):
            continue
        for k, v in attrs.items():
            key = str(k).strip().lower()
            if key in IDENTIFIER_KEYS and isinstance(v, (str, int)) and str(v).strip():
                value = str(v).strip().lower()
                if key in ("url", "website", "homepage"):
                    value = value.split("://", 1)[-1].removeprefix("www.").rstrip("/")
                out.add((key, value))
    return frozenset(out)


def identifier_conflict(a: frozenset[tuple[str, str]], b: frozenset[tuple[str, str]]) -> str | None:
    """"orcid 0000-1 vs 0000-2" when both carry a key with no value in common."""
    for key in sorted({k for k, _ in a} & {k for k, _ in b}):
        va, vb = {v for k, v in a if k == key}, {v for k, v in b if k == key}
        if not va & vb:
            return f"{key} {min(va)} vs {min(vb)}"
    return None
