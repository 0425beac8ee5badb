"""``collapse``: merge the identical-name copies of an entity before pairs are blocked and scored.

Chunk-by-chunk extraction leaves one entity per mention: "Sherlock Holmes" twenty-five times. Any
two copies score 1.0 on the name (same key), so pair scoring would only confirm, pair by pair, what
one grouping query already shows, and those pairs are most of the candidates (about 20 per entity on
a 100k-mention graph). ``collapse`` groups entities by (key, type, gender) in the database and
merges each group as clustering would have, under the same guards:

- a short form that several entities of the graph could carry ("Holmes", "Alan", "AUR": see
  :mod:`kgres.ambiguity`) is never grouped on its name: two bare "Holmes" may be two brothers;
- a group with a cannot-link inside it (a recorded ``NOT_SAME_AS``, a non-synonym relation between
  two copies, different identifiers) or, with ``pairwise=False`` (the default strategy), whose
  copies' attributes disagree (two "John Smith" records with different dates of birth) is left to
  the scored path, where the match model weighs it; with ``pairwise=True`` (``--strategy rules``) it
  is clustered pair by pair (:func:`kgres.resolve.cluster.cohesive_groups`) up to ``max_component``;
- a copy that a non-synonym relation ties to a longer name ending with its words ("Murdoch" -[be the
  son of]- "Rupert Murdoch") is a namesake of that name: it stays out of its group and goes to
  scoring, where clustering keeps it apart (``namesake``). Merged in, its one triple would forbid the
  whole group from ever joining "Rupert Murdoch", whom the other 194 copies name.

Each merged member's evidence is its real :func:`kgres.resolve.score.compare` result against the canonical
(a resolved canonical taken as the name the copies share, not its other names),
so ``kgres explain`` shows the same signals as for a scored pair.
"""

from __future__ import annotations

from collections.abc import Iterator

from kgres.db import Database, batches
from kgres.resolve.ambiguity import Ambiguity, short_key
from kgres.resolve.cluster import Evidence, Group, canonical_of, cohesive_groups, describe
from kgres.resolve.pairs import PairContext, PairFn
from kgres.resolve.score import ScoreConfig

BATCH_IDS = 2000


def collapse(db: Database, cfg: ScoreConfig, ambiguity: Ambiguity, max_component: int,
             cohesion: float, pairwise: bool = True, focus: list[str] | None = None) -> tuple[list[Group], int]:
    """Groups of identical-name copies to merge, and how many copies were left to pair scoring;
    ``focus``: only the sets of copies that hold one of these entities (an incremental resolve, whose
    new entities join the copy the graph had: resolved entities keep their ids)."""
    groups: list[Group] = []
    left = 0
    new = frozenset(focus or ())
    for batch in batches(_candidates(db, ambiguity, focus), BATCH_IDS):
        ctx = PairContext.load(db, batch, cfg, ambiguity)
        apart = _namesakes(db, [i for piece in batch for i in piece])
        for piece in batch:
            ids = sorted(i for i in piece if i in ctx.sides and i not in apart)
            found, skipped = _piece_groups(ctx, ids, max_component, cohesion, pairwise, new)
            groups += found
            left += skipped + len(piece) - len(ids)
    return groups, left


def _namesakes(db: Database, ids: list[str]) -> set[str]:
    """Copies a non-synonym relation ties to a longer name that ends with their words."""
    from kgres.resolve.score.constraints import keeps_apart
    return {r["id"] for r in db.read("resolve_collapse_namesakes", _plain=True, ids=ids)
            if any(map(keeps_apart, r["predicates"]))}


def _candidates(db: Database, ambiguity: Ambiguity, focus: list[str] | None) -> Iterator[list[str]]:
    rows = (db.stream("resolve_collapse_keys", _plain=True) if focus is None else
            (r for i in range(0, len(focus), BATCH_IDS)
             for r in db.read("resolve_collapse_keys_focus", _plain=True, ids=focus[i:i + BATCH_IDS])))
    seen: set[tuple[str, ...]] = set()  # focus pages may meet the same set of copies
    if focus is not None:  # an increment's few keys, asked at once of a table read key by key
        rows = list(rows)
        ambiguity.prefetch(short_key(tuple(r["tokens"] or ()), r["type"]) for r in rows)
    for r in rows:
        if focus is not None:
            if tuple(r["ids"]) in seen:
                continue
            seen.add(tuple(r["ids"]))
        tokens = tuple(r["tokens"] or ())
        if ambiguity.verdict(r["core"], tokens, r["core"], tokens, r["type"], "same_key") is None:
            yield r["ids"]


def _piece_groups(ctx: PairContext, ids: list[str], max_component: int, cohesion: float,
                  pairwise: bool = True, new: frozenset[str] = frozenset()) -> tuple[list[Group], int]:
    """Groups of one set of same-key copies; the second value counts copies left unmerged here.
    ``new``: the increment's entities, which join a copy the graph had rather than replace it."""
    if len(ids) < 2:
        return [], 0
    inside = set(ids)
    sides = [ctx.sides[i] for i in ids]
    mentions, names, cores = ctx.mentions(ids), ctx.names(ids), ctx.cores(ids)
    auto = ctx.cfg.auto_threshold
    # Two entities merged earlier: their other names must agree too (left to scoring). New copies of
    # the name of one resolved entity join it when each compares with it in the auto band (_group),
    # taken as that name: its other names said what they had to say when they were merged. Read
    # again against a copy, a spelling the model accepted ("Hedy Bengo" into "Hedy Bengio") became a
    # rule veto (different surnames), and later copies stayed a second "Hedy Bengio" that one run,
    # collapsing first, never leaves. Neighbours, relations, identifiers and NOT_SAME_AS still count.
    conflicted = (sum(1 for s in sides if s.aliases) > 1
                  or any(a in inside and b in inside for a, b in ctx.forbidden)
                  or any(a in inside and b in inside for a, b in ctx.related)
                  or _identifiers_disagree(sides)
                  or (not pairwise and _attributes_disagree(sides)))
    if not conflicted:
        canonical = canonical_of(ids, mentions, names, cores, new)
        group = _group(ids, canonical, ctx.compare_as_copies)
        if all(e.score >= auto for e in group.evidence.values()):
            return [group], 0
    if not pairwise or len(ids) > max_component:
        return [], len(ids)  # left to blocking and scoring
    parts = cohesive_groups(ids, ctx.compare, mentions, auto, cohesion)
    return [describe(p, ctx.compare, mentions, names, cores, new) for p in parts if len(p) > 1], 0


def _group(ids: list[str], canonical: str, pair: PairFn) -> Group:
    """All copies into ``canonical``; each member's evidence is its comparison with the canonical."""
    evidence, scores = {}, []
    for m in ids:
        other = canonical if m != canonical else next(i for i in ids if i != canonical)
        p = pair(m, other)
        evidence[m] = Evidence(linked_to=other, score=p.score, rule=p.signals.get("name_rule"), signals=p.signals)
        scores.append(p.score)
    return Group(members=tuple(ids), canonical=canonical, confidence=round(sum(scores) / len(scores), 4),
                 evidence=evidence)


def _attributes_disagree(sides) -> bool:
    """Some attribute key carries two different values among the copies."""
    values: dict[str, set[str]] = {}
    for s in sides:
        for key, value in s.attributes:
            values.setdefault(key, set()).add(value.strip().casefold())
    return any(len(v) > 1 for v in values.values())


def _identifiers_disagree(sides) -> bool:
    """Some identifier key carries two values among the copies (maybe two namesakes: check pairwise)."""
    values: dict[str, set[str]] = {}
    for s in sides:
        for key, value in s.identifiers:
            values.setdefault(key, set()).add(value)
    return any(len(v) > 1 for v in values.values())
