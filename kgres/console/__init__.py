"""The review console's reads: the queue, a pair, an entity, search and progress, as plain data.

The pages (:mod:`kgres.console.web`) render these; every change they make goes through the same
functions as the CLI (:func:`kgres.curate.review.decide`, :func:`kgres.curate.split.split`,
:func:`kgres.resolve.merge.rollback`), so a decision made in the browser is recorded exactly as
``kgres decide`` records it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any

from pydantic import BaseModel

from kgres.curate.review import ScoredPair
from kgres.db import Database

PASSAGE_CHARS = 280  # of a passage shown on either side of the highlighted mention
LUCENE_SPECIAL = re.compile(r'([+\-!(){}\[\]^"~*?:\\/]|&&|\|\|)')


class QueueItem(ScoredPair):
    settles: int  # other queued pairs that share a side with this one
    deferred_by: str | None  # someone answered "not sure": the pair waits at the back
    priority: float

    @property
    def key(self) -> str:
        return pair_key(self.a_id, self.b_id)


class Queue(BaseModel):
    items: list[QueueItem]
    total: int
    threshold: float  # the auto band's probability, the decision the queue is ordered around
    filters: dict[str, list[str]]


def pair_key(a: str, b: str) -> str:
    return "|".join(sorted((a, b)))


def priority(score: float, threshold: float, settles: int) -> float:
    """How informative an answer is: highest for a pair at the decision threshold, raised by how many
    other queued pairs the answer settles (a merge or a NOT_SAME_AS changes their sides)."""
    return round((1.0 - min(1.0, abs(score - threshold))) * (1.0 + math.log1p(settles)), 6)


def auto_threshold(db: Database) -> float:
    """The newest model's auto-band probability (0.9, the default, before any model)."""
    from kgres.errors import KgresError
    from kgres.resolve.score import store

    try:
        row = store.get(db)
    except KgresError:
        row = None
    value = row.get("auto_threshold") if row else None
    return float(value) if value is not None else 0.9


def queue(db: Database, type_: str | None = None, run: str | None = None, source: str | None = None,
          skip: frozenset[str] = frozenset()) -> Queue:
    """Undecided review-band pairs, most informative first (:func:`priority`); pairs someone deferred
    come last, and those in ``skip`` (keys of :func:`pair_key`) are left out."""
    t = auto_threshold(db)
    rows = db.read("console_queue", type=type_ or None, run=run or None, source=source or None)
    touching: dict[str, set[str]] = {}
    for r in rows:
        touching.setdefault(r["a_id"], set()).add(r["b_id"])
        touching.setdefault(r["b_id"], set()).add(r["a_id"])
    items = []
    for r in rows:
        settles = len(touching[r["a_id"]] - {r["b_id"]}) + len(touching[r["b_id"]] - {r["a_id"]})
        items.append(QueueItem(**r, settles=settles, priority=priority(r["score"], t, settles)))
    items = [i for i in items if i.key not in skip]
    items.sort(key=lambda i: (i.deferred_by is not None, -i.priority, -i.score, i.a_id, i.b_id))
    f = db.read("console_filters")[0]
    filters = {"type": sorted({x for x in f["types"] if x}), "run": sorted(f["runs"], reverse=True),
               "source": sorted(f["sources"])}
    return Queue(items=items, total=len(items), threshold=t, filters=filters)


class Passage(BaseModel):
    """A mention's chunk, cut around the mention: ``before`` + ``mark`` + ``after``."""

    chunk_id: str
    before: str
    mark: str
    after: str
    located: str  # "span" (the extractor's offsets), "name" (found by name) or "none"


def passage(text: str | None, chunk_id: str | None, name: str, start: int | None, end: int | None) -> Passage | None:
    """The passage of a mention with the mention highlighted: at its span when the extractor gave one
    that fits the text, else at the first case-insensitive occurrence of its name."""
    if not text or not chunk_id:
        return None
    located = "none"
    if start is not None and end is not None and 0 <= start < end <= len(text):
        located = "span"
    else:
        at = text.lower().find(name.lower()) if name else -1
        start, end = (at, at + len(name)) if at >= 0 else (0, 0)
        located = "name" if at >= 0 else "none"
    lo, hi = max(0, start - PASSAGE_CHARS), min(len(text), end + PASSAGE_CHARS)
    return Passage(chunk_id=chunk_id, before=("…" if lo else "") + text[lo:start], mark=text[start:end],
                   after=text[end:hi] + ("…" if hi < len(text) else ""), located=located)


def sides(db: Database, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per entity id: the entity, its attributes (key -> values over its mentions), up to 20 mentions
    with their passage, and its strongest relations."""
    out: dict[str, dict[str, Any]] = {}
    for row in db.read("console_sides", ids=ids):
        attributes: dict[str, list[str]] = {}
        for m in row["mentions"]:
            for k, v in json.loads(m.pop("attributes_json") or "{}").items():
                if str(v) not in attributes.setdefault(k, []):
                    attributes[k].append(str(v))
            m["passage"] = passage(m.pop("text"), m.pop("chunk_id"), m["name"], m.pop("span_start"), m.pop("span_end"))
        out[row["entity"]["id"]] = {**row, "attributes": dict(sorted(attributes.items()))}
    return out


def shared_neighbours(db: Database, a: str, b: str) -> list[dict[str, Any]]:
    return db.read("console_shared", a=a, b=b)


def state(db: Database, ids: list[str]) -> dict[str, dict[str, Any]]:
    """Per id: current or retired (and into what), mentions, the pairs among ``ids`` with their
    decisions, and NOT_SAME_AS among them."""
    rows = db.read("console_stamp", ids=sorted(set(ids)))
    for r in rows:
        r["pairs"], r["apart"] = sorted(r["pairs"]), sorted(r["apart"])
    return {r["id"]: r for r in rows}


def digest(st: dict[str, dict[str, Any]]) -> str:
    """A digest of a :func:`state`: it changes when an entity is merged, split, retired, given or
    losing mentions, or when a pair among them is decided."""
    rows = [st[k] for k in sorted(st)]
    return hashlib.sha256(json.dumps(rows, sort_keys=True, default=str).encode()).hexdigest()[:16]


def stamp(db: Database, ids: list[str]) -> str:
    """What a page showed of these entities and the pairs among them, as :func:`digest` sums it up."""
    return digest(state(db, ids))


class Progress(BaseModel):
    decided: int  # pairs decided (people and the judge), each a training label
    accepted: int
    by_llm: int
    left: int  # pairs still in the queue
    run_id: str | None  # the latest whole resolve
    auto_pairs: int | None  # its auto band
    expected_precision: float | None  # the model's own estimate for that band
    expected_precision_after: float | None  # with the pairs accepted since counted as certain
    labels_since: int  # decisions the next training learns from


def progress(db: Database, left: int) -> Progress:
    """Decisions made and left, and the model's expected precision before and after them: the auto
    band's estimate, and the same with the pairs people accepted since that run counted as certain
    (rejections remove review pairs, which were never merged, so they do not change it)."""
    from kgres.resolve.pipeline import STRATEGIES

    r = db.read("console_progress", strategies=list(STRATEGIES))[0]
    passes = [json.loads(s) for s in r["stats"] if s]
    scored = [s for s in passes if s.get("expected_precision") is not None]
    n = sum((s.get("bands") or {}).get("auto", 0) for s in passes) if scored else None
    p = scored[0]["expected_precision"] if scored else None
    after = None
    if n is not None and p is not None:
        accepted = r["accepted_since"]
        after = (p * n + accepted) / (n + accepted) if n + accepted else p
    return Progress(decided=r["labels"], accepted=r["accepted"], by_llm=r["by_llm"], left=left, run_id=r["run_id"],
                    auto_pairs=n, expected_precision=p, expected_precision_after=after,
                    labels_since=r["labels_since"])


def search(db: Database, q: str, limit: int = 25) -> list[dict[str, Any]]:
    """Current entities matching ``q`` by name, alias or a mention's name (full-text indexes); the
    words are matched as typed (Lucene syntax is escaped), the last one also as a prefix."""
    words = [LUCENE_SPECIAL.sub(r"\\\1", w) for w in q.split()][:12]
    if not words:
        return []
    query = " AND ".join(words[:-1] + [f"({words[-1]} OR {words[-1]}*)"])
    return db.read("console_search", q=query, limit=limit)


def run_effect(db: Database, run_id: str) -> dict[str, Any] | None:
    """What rolling ``run_id`` back changes (None: no such run)."""
    rows = db.read("console_run_effect", run=run_id)
    return rows[0] if rows else None
