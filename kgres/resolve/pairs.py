"""``PairContext``: what comparing any two of a set of entities needs, loaded once.

Clustering, collapse, the LLM judge and the threshold sweep all ask the same question of the same
data: "how do these two entities compare, given their names, identifiers, neighbours, a recorded
``NOT_SAME_AS`` and the relations between them?" A ``PairContext`` loads that for a batch of
entity sets (three queries per batch, not per set) and answers :meth:`PairContext.compare`, each
pair computed once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from kgres.db import Database
from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.score import PairScore, ScoreConfig, Side, compare

PairFn = Callable[[str, str], PairScore]


class PairContext:
    """Sides, cannot-link facts and cached comparisons of the entities of one or more sets."""

    def __init__(self, rows: Sequence[dict[str, Any]], forbidden: set[tuple[str, str]],
                 related: dict[tuple[str, str], list[str]], cfg: ScoreConfig = ScoreConfig(),
                 ambiguity: Ambiguity | None = None) -> None:
        self.rows = {r["id"]: r for r in rows}
        self.sides = {i: Side.from_row(r) for i, r in self.rows.items()}
        self.forbidden, self.related, self.cfg, self.ambiguity = forbidden, related, cfg, ambiguity
        self._cache: dict[tuple[str, str], PairScore] = {}

    @classmethod
    def load(cls, db: Database, pieces: Sequence[Sequence[str]], cfg: ScoreConfig = ScoreConfig(),
             ambiguity: Ambiguity | None = None, members: str = "resolve_pairs_members") -> "PairContext":
        """Load the entities of ``pieces`` (lists of ids; each entity's neighbours leave out its own
        piece) with the ``members`` query (``evaluate_entity_keys`` reads retired entities too)."""
        pieces = [list(p) for p in pieces]
        ids = [i for p in pieces for i in p]
        rows = [e for r in db.read(members, _plain=True, pieces=pieces) for e in r["es"]]
        forbidden = {(r["a"], r["b"]) for r in db.read("resolve_pairs_not_same_as", _plain=True, ids=ids)}
        related = {(r["a"], r["b"]): r["predicates"] for r in db.read("resolve_pairs_relations", _plain=True, ids=ids)}
        return cls(rows, forbidden, related, cfg, ambiguity)

    def compare(self, x: str, y: str) -> PairScore:
        """How ``x`` and ``y`` compare (symmetric, cached)."""
        key = (x, y) if x < y else (y, x)
        if key not in self._cache:
            self._cache[key] = self._compare(self.sides[key[0]], self.sides[key[1]], key)
        return self._cache[key]

    def compare_as_copies(self, x: str, y: str) -> PairScore:
        """:meth:`compare` for two copies of one name, each taken as that name only: without the other
        names a resolved entity carries (see :func:`kgres.resolve.collapse.collapse`)."""
        key = (x, y) if x < y else (y, x)
        a, b = (replace(s, aliases=()) if s.aliases else s for s in (self.sides[k] for k in key))
        return self._compare(a, b, key)

    def _compare(self, a: Side, b: Side, key: tuple[str, str]) -> PairScore:
        return compare(a, b, self.cfg, not_same_as=key in self.forbidden,
                       predicates_between=self.related.get(key, ()), ambiguity=self.ambiguity)

    def cannot_link(self, x: str, y: str) -> str | None:
        """The reason ``x`` and ``y`` may never be one entity, or None."""
        return self.compare(x, y).cannot_link

    def mentions(self, ids: Sequence[str]) -> dict[str, int]:
        return {i: self.rows[i].get("mention_count") or 1 for i in ids if i in self.rows}

    def names(self, ids: Sequence[str]) -> dict[str, str]:
        return {i: self.rows[i].get("name") or "" for i in ids if i in self.rows}

    def cores(self, ids: Sequence[str]) -> dict[str, str]:
        return {i: self.sides[i].core for i in ids if i in self.sides}


def cannot_link(db: Database, a: str, b: str) -> str | None:
    """Why entities ``a`` and ``b`` may never merge (a cannot-link rule of :mod:`kgres.resolve.score`),
    or None; "missing" when one of them is not a current entity."""
    ctx = PairContext.load(db, [[a, b]])
    if a not in ctx.sides or b not in ctx.sides:
        return "missing"
    return ctx.cannot_link(a, b)
