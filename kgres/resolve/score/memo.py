"""What one resolve's passes already compared: a pair's comparison vector is reused by a later pass
when nothing it was computed from has changed.

A whole resolve re-scores most pairs several times: each pass proposes the pairs of the entities in
its focus, and the last pass proposes every entity's pairs again to confirm that nothing is left to
merge (20k generated mentions: 430k pairs scored over ten passes, 180k of them by the two passes over
every entity, for 8 merges). A pair's levels, cannot-link and cosines are a function of

- both entities' rows as the score stage reads them (names, aliases, keys, attributes, neighbours
  with their predicates, the chunks), each fingerprinted (:meth:`~kgres.resolve.score.stage.Sides.fingerprint`);
- the pair's text and context embedding cosines, the only way the vectors enter the levels: equal to
  within :data:`COSINE_TOLERANCE`, far above the float noise that recomputing the graph's context
  embeddings (GDS FastRP) leaves on unchanged entities (up to 1e-7 per component, 20k generated
  mentions) and far below what changes a band;
- whether a NOT_SAME_AS separates the two;
- the one holder-table key its names may ask about (:meth:`~kgres.resolve.ambiguity.Ambiguity.version`);
- the comparisons and word weights of the model (:meth:`PairMemo.bind` forgets everything when they change).

So a pass that finds all of these unchanged reuses the stored outcome instead of computing it: the
result is the one computing would give. Probabilities, bands and the auto threshold are still
computed per pass from the vectors.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from typing import NamedTuple

from kgres.resolve.ambiguity import Ambiguity

COSINE_TOLERANCE = 1e-6
# Pairs held at most (a few hundred bytes each with their last edge: a resolve of 100k generated
# mentions peaked about 250 MB higher); beyond it the pairs held longest are dropped first (compared
# again if proposed).
KEPT = 2_000_000
EVICTED = 0.1  # ... dropped a tenth of the limit at a time (see PairMemo.put)


class Compared(NamedTuple):
    """One pair's comparison outcome and what it was computed from."""

    fa: int  # fingerprint of the smaller id's entity
    fb: int
    not_same_as: bool
    short_key: tuple | None  # the holder-table key its names read, and that key's version then
    short_version: int | None
    gamma: bytes  # the comparison vector (int8 levels)
    tf: tuple[tuple[int, str], ...]  # (comparison index, shared value) of its term-frequency levels
    conflict: str | None
    swapped: bool
    ego: float | None  # the cosines it was computed from
    neighbour: float | None
    coded: bool = False  # the names share a model code (kgres.resolve.score.names.shares_code)
    apart: bool = False  # names that each replace a word inside (levels.words_replaced), no person: if capped,
    # the pair keeps its groups apart in clustering


class PairMemo:
    """Pair -> :class:`Compared`, for the passes of one resolve (never across resolves: the memo
    lives in the process that runs them), ``limit`` pairs at most. ``hits`` and ``misses`` count
    lookups since creation."""

    def __init__(self, limit: int = KEPT) -> None:
        self.limit = limit
        self._held: dict[tuple[str, str], Compared] = {}
        self._edges: dict[tuple[str, str], int] = {}
        self._vectors: dict[bytes, bytes] = {}  # each comparison vector held once: most pairs share a few
        self._signature: int | None = None
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._held)

    def bind(self, comparisons: Sequence[tuple[str, tuple[str, ...]]], tokens: dict[str, float],
             default: float, ambiguity: Ambiguity | None) -> None:
        """Use the memo with these comparisons (name, level names), word weights and holder table
        (or none); what was compared under others is forgotten."""
        signature = hash((tuple(comparisons), tuple(sorted(tokens.items())), default, ambiguity is None))
        if signature != self._signature:
            self._held.clear()
            self._edges.clear()
            self._vectors.clear()
            self._signature = signature

    def get(self, a: str, b: str, fa: int, fb: int, not_same_as: bool, ego: float | None, neighbour: float | None,
            ambiguity: Ambiguity | None) -> Compared | None:
        """The stored outcome of ``(a, b)`` if it was computed from the same inputs, else None."""
        held = self._held.get((a, b))
        if held is None or held.fa != fa or held.fb != fb or held.not_same_as != not_same_as or \
                not _close(held.ego, ego) or not _close(held.neighbour, neighbour) or (
                held.short_key is not None and (ambiguity is None
                                                or ambiguity.version(held.short_key) != held.short_version)):
            self.misses += 1
            return None
        self.hits += 1
        return held

    def put(self, a: str, b: str, compared: Compared) -> None:
        gamma = self._vectors.setdefault(compared.gamma, compared.gamma)
        if gamma is not compared.gamma:
            compared = compared._replace(gamma=gamma)
        self._held.pop((a, b), None)  # re-inserted: held longest is put longest ago
        self._held[(a, b)] = compared
        if len(self._held) > self.limit:
            # The oldest pairs go a tenth of the limit at a time: a dict finds its first key by
            # skipping the slots of every key deleted before it, so dropping one at a time cost a
            # scan per put (1M puts past a 2M limit: 106 s, against 0.9 s this way; 1M generated
            # mentions spent most of a 20-minute score stage there).
            for oldest in list(islice(self._held, len(self._held) - self.limit + int(self.limit * EVICTED))):
                del self._held[oldest]
                self._edges.pop(oldest, None)

    def written(self, a: str, b: str, edge: int) -> bool:
        """Whether the last CANDIDATE edge a pass of this resolve wrote for ``(a, b)`` says ``edge`` (a
        hash of everything it carries but the run); if not, ``edge`` becomes the last one, for a pair
        the memo holds. A pair it has dropped keeps no edge either: the edges stay within the limit
        (kept for every pair written, they grew past it with every pair of a pass larger than it:
        5.9M in the first pass of 1M generated mentions)."""
        if self._edges.get((a, b)) == edge:
            return True
        if (a, b) in self._held:
            self._edges[(a, b)] = edge
        return False

    def forget(self, retired: set[str]) -> None:
        """Drop the pairs of entities merged away (no pass proposes them again)."""
        if retired:
            for kept in (self._held, self._edges):
                for pair in [p for p in kept if p[0] in retired or p[1] in retired]:
                    del kept[pair]

    def held(self) -> dict[tuple[str, str], Compared]:
        """A copy of what the memo holds, by pair."""
        return dict(self._held)


def _close(x: float | None, y: float | None) -> bool:
    return x == y or (x is not None and y is not None and abs(x - y) <= COSINE_TOLERANCE)
