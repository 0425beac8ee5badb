"""Short names that several entities of the graph could carry: "Holmes", "Alan", "AUR".

A bare surname, a bare given name, an initial with a surname ("A. Berners") or an acronym is a
*short form*. Its *holders* are the multi-word
names in the whole graph it can stand for: persons whose first or last word it is ("Holmes" ->
"Sherlock Holmes", "Mycroft Holmes"), names whose acronym it is ("AUR" -> "Advanced United
Robotic", "Applied United Robotic"). Holders that can be one entity (spelling variants: "Ada
Shannon" / "Ada Shnnon") count once.

With two or more holders, the short form does not say which one a mention means, and two mentions
of it may mean different things. :mod:`kgres.score` then sends such a pair to review as *unknown*
(it neither links nor vetoes in clustering) unless context speaks for it, or one holder is
*dominant*: it has at least ``PRIOR_MARGIN`` times the mentions of all the others together (the
popularity prior of entity linking: "Holmes" means Sherlock in a story about him).

The table is read from the whole graph (``resolve_ambiguity_holders``, one row per distinct
multi-word name, once per pass; or, for an increment, key by key as pairs ask:
``resolve_ambiguity_holders_of``), because ambiguity is a property of the whole graph: looked at
inside one connected component, "Berners" seems to fit only the one "Berners" who happens to be there.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kgres.db import MAX_INDEXED_CHARS, Database
from kgres.resolve.normalize import QUALIFIERS, singular

PRIOR_MARGIN = 2


@dataclass
class Holders:
    """The holder groups of one short form, most-mentioned first."""

    groups: list[tuple[tuple[str, ...], int]] = field(default_factory=list)  # (tokens of the first core, mentions)
    member: dict[str, int] = field(default_factory=dict)  # holder core -> index of its group

    def add(self, core: str, tokens: tuple[str, ...], mentions: int, same: "SameFn") -> None:
        for i, (rep, _) in enumerate(self.groups):
            if same(rep, tokens):
                self.member[core] = i
                self.groups[i] = (rep, self.groups[i][1] + mentions)
                return
        self.member[core] = len(self.groups)
        self.groups.append((tokens, mentions))

    @property
    def dominant(self) -> int | None:
        """Index of the group that carries the short form by the popularity prior, if any."""
        if not self.groups:
            return None
        counts = [n for _, n in self.groups]
        top = max(range(len(counts)), key=lambda i: (counts[i], -i))
        return top if counts[top] >= PRIOR_MARGIN * (sum(counts) - counts[top]) else None


SameFn = Any  # Callable[[tuple[str, ...], tuple[str, ...]], bool]


@dataclass(frozen=True)
class ShortFormVerdict:
    """What the holder table says about one pair of names."""

    holders: int  # holder groups of the short form
    dominant_side: bool  # the long side is the dominant holder


class Ambiguity:
    """Holder groups of every short form in the graph (see the module docstring)."""

    def __init__(self, rows: Iterable[dict[str, Any]], same: SameFn,
                 fetch: Callable[[set[tuple]], Iterable[dict[str, Any]]] | None = None) -> None:
        """``rows``: the graph's multi-word names (``resolve_ambiguity_holders`` rows). ``fetch``: read
        instead the names that hold the given keys (:meth:`lazy`), each key the first time it is asked."""
        # The names are only filed by key here; a key's holder groups are built (name comparisons)
        # the first time a pair asks about it. A pass asks about few keys of the graph-wide table
        # (100 new mentions into a resolved 20k graph: building every key's took 0.3 s of its 4 s).
        self._same = same
        self._fetch = fetch
        self._fetched: set[tuple] = set()
        self._rows: dict[tuple, list[tuple[str, tuple[str, ...], int]]] = {}
        self._holders: dict[tuple, Holders | None] = {}
        self._versions: dict[tuple, int] = {}
        self._file(rows, None)

    def _file(self, rows: Iterable[dict[str, Any]], keys: set[tuple] | None) -> None:
        """File each name under its holder keys (those of ``keys`` only, when given), most mentioned first."""
        for r in sorted(rows, key=lambda r: (-r["mentions"], r["core"])):
            tokens = tuple(r["tokens"])  # "Young Scrooge", "Scrooge's Nephew": never a bare name's referent
            for k in holder_keys(tokens, r["type"], r["core"], r.get("acronym")):
                if keys is None or k in keys:
                    self._rows.setdefault(k, []).append((r["core"], tokens, r["mentions"]))

    def prefetch(self, keys: Iterable[tuple | None]) -> None:
        """Read the holders of those of ``keys`` not read yet, in one query (a table read whole: nothing)."""
        if self._fetch is None:
            return
        wanted = {k for k in keys if k is not None and k not in self._fetched}
        if wanted:
            self._file(self._fetch(wanted), wanted)
            self._fetched |= wanted

    def _get(self, key: tuple | None) -> Holders | None:
        """The holder groups of ``key`` (None: no multi-word name has it), built on first use."""
        if key is None:
            return None
        if key not in self._holders:
            self.prefetch([key])
            rows = self._rows.get(key)
            h = None
            if rows:
                h = Holders()
                for core, tokens, mentions in rows:
                    h.add(core, tokens, mentions, self._same)
            self._holders[key] = h
        return self._holders[key]

    @classmethod
    def load(cls, db: Database, same: SameFn) -> "Ambiguity":
        """The whole graph's table, in one read (a pass that asks about many keys)."""
        return cls(db.collected("resolve_ambiguity_holders"), same)

    @classmethod
    def lazy(cls, db: Database, same: SameFn) -> "Ambiguity":
        """The table read key by key, as pairs ask (:meth:`prefetch` reads a page's keys at once): a
        small increment asks about few short forms, and the whole table grows with the graph (100k
        mentions: 0.2-0.45 s a read). Needs every entity's keys written by this version of
        :mod:`kgres.resolve.normalize` (``key_first``, ``key_last``)."""
        def fetch(keys: set[tuple]) -> list[dict[str, Any]]:
            words = sorted({k[1] for k in keys if k[0] in ("p", "w")} | {k[2] for k in keys if k[0] == "i"})
            acronyms = sorted({k[2] for k in keys if k[0] == "a"})
            return db.read("resolve_ambiguity_holders_of", _plain=True, words=[w[:MAX_INDEXED_CHARS] for w in words],
                           acronyms=[a[:MAX_INDEXED_CHARS] for a in acronyms])
        return cls((), same, fetch)

    def groups(self, key: tuple) -> list[set[str]]:
        """The holder groups of the short-form ``key`` (each a set of cores), most-mentioned first."""
        h = self._get(key)
        if h is None:
            return []
        out: list[set[str]] = [set() for _ in h.groups]
        for core, i in h.member.items():
            out[i].add(core)
        return [out[i] for i in sorted(range(len(h.groups)), key=lambda i: (-h.groups[i][1], i))]

    def dominates(self, key: tuple, core: str, less: int = 0) -> bool:
        """Whether the holder group of ``core`` carries the short-form ``key`` by the popularity prior
        with ``less`` of its mentions taken off (those of the short form itself, merged into it)."""
        h = self._get(key)
        if h is None or core not in h.member:
            return False
        counts = [n for _, n in h.groups]
        mine = counts[h.member[core]]
        return mine - less >= PRIOR_MARGIN * (sum(counts) - mine)

    def holders(self, tokens: tuple[str, ...], type_: str | None) -> list[list[str]]:
        """The holder groups (cores, most-mentioned group first) a short form could stand for; empty
        when ``tokens`` is not a short form or has fewer than two holder groups."""
        key = short_key(tokens, type_)
        groups = self.groups(key) if key is not None else []
        return [sorted(g) for g in groups] if len(groups) >= 2 else []

    def short_form(self, a_core: str, a_tokens: tuple[str, ...], b_core: str, b_tokens: tuple[str, ...],
                   type_: str | None, rule: str) -> ShortFormVerdict | None:
        """None when the pair's name link is not a short form; else how many holder groups the short
        form has in the graph (1: it can only mean the other side) and whether the other side is the
        dominant one."""
        side = _short_side(a_core, a_tokens, b_core, b_tokens, type_, rule)
        if side is None:
            return None
        key, long_core = side
        h = self._get(key)
        if h is None or a_core == b_core:
            return ShortFormVerdict(holders=len(h.groups) if h else 0, dominant_side=False)
        dom = h.dominant  # None when no group dominates: then no side is the dominant one (the other
        # side need not be a holder at all: "D. Jones" and "Dr. Jones" are both short forms of "jones")
        return ShortFormVerdict(holders=len(h.groups), dominant_side=dom is not None and h.member.get(long_core) == dom)

    def key(self, a_core: str, a_tokens: tuple[str, ...], b_core: str, b_tokens: tuple[str, ...],
            type_: str | None, rule: str) -> tuple | None:
        """The holder-table key :meth:`short_form` and :meth:`verdict` read for this pair, or None
        when they read none (its name link is not a short form)."""
        side = _short_side(a_core, a_tokens, b_core, b_tokens, type_, rule)
        return side[0] if side is not None else None

    def version(self, key: tuple) -> int:
        """A fingerprint of what the table answers about ``key``: its holder groups (as sets of names)
        and which of them dominates, not the mention counts that order and decide them. Two tables
        give a pair the same answers wherever the key it reads has one version."""
        if key not in self._versions:
            h = self._get(key)
            groups: dict[int, set[str]] = {}
            for core, i in (h.member.items() if h is not None else ()):
                groups.setdefault(i, set()).add(core)
            dominant = h.dominant if h is not None else None
            self._versions[key] = hash((frozenset(frozenset(g) for g in groups.values()),
                                        frozenset(groups[dominant]) if dominant is not None else None))
        return self._versions[key]

    def verdict(self, a_core: str, a_tokens: tuple[str, ...], b_core: str, b_tokens: tuple[str, ...],
                type_: str | None, rule: str) -> ShortFormVerdict | None:
        """None when the pair is not about an ambiguous short form; else how ambiguous it is."""
        side = _short_side(a_core, a_tokens, b_core, b_tokens, type_, rule)
        if side is None:
            return None
        key, long_core = side
        h = self._get(key)
        if h is None or len(h.groups) < 2:
            return None
        dom = h.dominant
        if a_core == b_core:
            # Two bare "Holmes" may mean Sherlock and Mycroft even when Sherlock dominates: each is
            # placed on its own, by its links to full names (where the prior applies) and its context.
            return ShortFormVerdict(holders=len(h.groups), dominant_side=False)
        return ShortFormVerdict(holders=len(h.groups), dominant_side=dom is not None and h.member.get(long_core) == dom)


def holder_keys(tokens: tuple[str, ...], type_: str | None, core: str, acronym: str | None) -> set[tuple]:
    """The short forms (holder-table keys) a multi-word name can be meant by: a person's first and
    last word and initial with surname, an untyped name's first and last word ("Gates": "Bill Gates",
    also "Gates Foundation"), any name's acronym. Names with a qualifier ("Young Scrooge") hold none."""
    if len(tokens) < 2 or (type_ == "PERSON" and any(w in QUALIFIERS for w in tokens)):
        return set()
    keys: set[tuple] = set()
    if type_ == "PERSON" and len(tokens[0]) > 1:
        keys = {("p", tokens[0]), ("p", tokens[-1]), ("i", tokens[0][0], tokens[-1])}
    elif type_ is None:  # the first word in the singular, as a single word is keyed ("Gates": "gate")
        keys = {("w", singular(tokens[0])), ("w", tokens[-1])}
    if acronym and acronym != core:
        keys.add(("a", type_, acronym))
    return keys


def _short_side(a_core: str, a_tokens: tuple[str, ...], b_core: str, b_tokens: tuple[str, ...],
                type_: str | None, rule: str) -> tuple[tuple, str] | None:
    """The short form's holder-table key and the other side's core, when the pair's name link
    (``rule``) is a short form of the other name; else None."""
    if rule == "proper_part":  # an untyped proper name's first or last word (kgres.resolve.score.levels.proper_part)
        if len(a_tokens) == 1 and len(b_tokens) > 1:
            return ("w", a_tokens[0]), b_core
        if len(b_tokens) == 1 and len(a_tokens) > 1:
            return ("w", b_tokens[0]), a_core
        return None
    if rule not in ("same_key", "person_subset", "person_initials", "acronym"):
        return None
    ka, kb = short_key(a_tokens, type_), short_key(b_tokens, type_)
    if ka is not None and (kb is None or len(a_tokens) <= len(b_tokens)):
        return ka, b_core
    if kb is not None:
        return kb, a_core
    return None


def short_key(tokens: tuple[str, ...], type_: str | None) -> tuple | None:
    """The holder-table key of a short form (a bare person name, an initial and surname, an acronym),
    None for a name that is not one."""
    if type_ == "PERSON":
        if len(tokens) == 1:
            return ("p", tokens[0])
        if len(tokens) == 2 and len(tokens[0]) == 1:
            return ("i", tokens[0], tokens[1])
        return None
    return ("a", type_, tokens[0]) if len(tokens) == 1 else None


def short_keys(tokens: tuple[str, ...], type_: str | None) -> set[tuple]:
    """Every holder-table key a name is asked under as a short form: :func:`short_key`'s, and an
    untyped single word's as a proper name's first or last word (``proper_part``)."""
    keys = {k} if (k := short_key(tokens, type_)) is not None else set()
    if type_ is None and len(tokens) == 1:
        keys.add(("w", tokens[0]))
    return keys
