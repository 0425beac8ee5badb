"""``score``: the rule scorer over a run's candidate pairs, page by page, in the database."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from kgres.db import Database
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.score.rules import ScoreConfig, Semantic, Side, compare, same_name_tokens


class ScoreStats(BaseModel):
    run_id: str
    scored: int
    bands: dict[str, int]


def score(db: Database, run_id: str, cfg: ScoreConfig = ScoreConfig(),
          on_batch: Callable[[int], None] = lambda n: None, ambiguity: Ambiguity | None = None) -> ScoreStats:
    """Score every unscored CANDIDATE of ``run_id`` in pages; write score, band and signals on it.
    ``ambiguity`` defaults to the graph's holder table (:func:`load_ambiguity`)."""
    ambiguity = ambiguity if ambiguity is not None else load_ambiguity(db)
    scored, bands = 0, {"auto": 0, "review": 0, "reject": 0}
    after = ""
    # Pages of entities, not of pairs: about PAIRS_PER_ENTITY candidates each, batch_size pairs a page.
    while page := db.read("resolve_score_page", run_id=run_id, after=after, limit=max(1, cfg.batch_size // PAIRS_PER_ENTITY)):
        after = max(r["a"] for r in page)
        sides = _Sides(db.read("resolve_score_sides", ids=sorted({r["a"] for r in page} | {r["b"] for r in page})))
        rows = []
        for r in page:
            sem = Semantic(ego=r["ego"], neighbour=r["neighbour"], structural=r["structural"],
                           same_chunk=r["same_chunk"])
            s = compare(sides.get(r["a"], r["b"]), sides.get(r["b"], r["a"]), cfg, not_same_as=r["not_same_as"],
                        predicates_between=r["predicates"], semantic=sem, ambiguity=ambiguity)
            bands[s.band] += 1
            rows.append({"a": r["a"], "b": r["b"], "score": s.score, "band": s.band,
                         "signals_json": json.dumps(s.signals, sort_keys=True)})
        db.write("resolve_score_write", rows=rows, run_id=run_id)
        scored += len(rows)
        on_batch(len(rows))
    return ScoreStats(run_id=run_id, scored=scored, bands=bands)


PAIRS_PER_ENTITY = 10


class _Sides:
    """The Sides of one page's entities (``resolve_score_sides`` rows), built once per entity. Seen from a
    pair, an entity's neighbours leave out the other side itself: two related duplicates would
    otherwise count each other ("PERSON|holmes" on both sides) as shared context."""

    def __init__(self, rows: list[dict[str, Any]]) -> None:
        self._rows = {r["e"]["id"]: r["e"] for r in rows}
        self._plain: dict[str, Side] = {}

    def get(self, id_: str, other: str) -> Side:
        row = self._rows[id_]
        nbrs = row.get("nbrs") or ()
        if any(n == other for n, _ in nbrs):
            kept = [(n, t) for n, t in nbrs if n != other]
            return Side.from_row({**row, "neighbours": [n for n, _ in kept], "typed_neighbours": [t for _, t in kept]})
        if id_ not in self._plain:
            self._plain[id_] = Side.from_row({**row, "neighbours": [n for n, _ in nbrs],
                                              "typed_neighbours": [t for _, t in nbrs]})
        return self._plain[id_]


def load_ambiguity(db: Database) -> Ambiguity:
    """The graph's short-form holder table, with spelling variants of one name counted once."""
    return Ambiguity.load(db, same_name_tokens)
