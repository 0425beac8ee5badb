"""What comparing two entities needs to know about each: a :class:`Side` (name keys, the other names
a merged entity carries, neighbours, identifiers and attributes from its mentions)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from kgres.resolve.normalize import capitalised, fold, name_keys, singular
from kgres.resolve.score.identifiers import attributes_of, identifiers_of

# A merged entity's aliases are keyed each time its side is read (every pass, every pair page): the
# same few names again and again (100 new mentions into a resolved 100k graph: 9.6k calls, 0.6 s).
_alias_keys = lru_cache(maxsize=1 << 16)(name_keys)

MAX_ALIASES = 20


@dataclass(frozen=True)
class Side:
    """What comparing needs to know about one entity: the keys of its name (and, as ``aliases``, of the
    other names a merged entity carries), its neighbours, and what its mentions' ``attributes`` say."""

    id: str
    core: str
    tokens: tuple[str, ...]
    acronym: str | None
    numbers: tuple[str, ...]
    type: str | None
    gender: str | None = None
    title: str | None = None  # an occupational title of a person name ("colonel", "professor")
    neighbours: frozenset[str] = frozenset()
    typed_neighbours: frozenset[str] = frozenset()  # "TYPE|name key" of each neighbour
    identifiers: frozenset[tuple[str, str]] = frozenset()  # (key, value) from the mentions' attributes
    aliases: tuple["Side", ...] = ()  # the other names a merged entity already carries
    name: str = ""
    attributes: tuple[tuple[str, str], ...] = ()  # (normalised key, value) of every mention attribute
    description: str | None = None
    mentions: int = 1
    facts: frozenset[tuple[str, str]] = frozenset()  # (key, folded value) of every attribute, to count agreements
    attribute_words: frozenset[str] = frozenset()  # the words of its attribute values, as name tokens are

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> "Side":
        # built once, not built and then replaced twice: a collapse builds a Side per copy (100k
        # generated mentions: 86k Sides; their replaces and compare_as_copies' were 4.2 s, profiled)
        raw_attributes = r.get("attributes") or ()
        attributes = attributes_of(raw_attributes)
        own = cls(id=r["id"], core=r["key_core"] or "", tokens=tuple(r["key_tokens"] or ()),
                  acronym=r.get("key_acronym"), numbers=tuple(r["key_numbers"] or ()), type=r.get("norm_type"),
                  gender=r.get("key_gender"), title=r.get("key_title"),
                  neighbours=frozenset(r.get("neighbours") or ()),
                  typed_neighbours=frozenset(r.get("typed_neighbours") or ()),
                  identifiers=identifiers_of(raw_attributes), name=r.get("name") or "",
                  attributes=attributes, description=r.get("description"),
                  mentions=r.get("mention_count") or 1,
                  facts=frozenset((k, fold_value(v)) for k, v in attributes),
                  attribute_words=frozenset(x for _, v in attributes for w in fold(v) for x in (w, singular(w))))
        others, seen = [], set()
        for alias in sorted(set(r.get("aliases") or ()))[:MAX_ALIASES]:
            k = _alias_keys(alias, r.get("norm_type"))
            # Of names alike in every key and in being written as a proper name ("SHERLOCK HOLMES" /
            # "Sherlock Holmes"), the first stands for the rest: comparing reads nothing else of an
            # alias, and each pair of two entities' names is compared (100k generated mentions: 5.7
            # names an entity, 3.4 unalike).
            alike = (k.core, k.tokens, k.acronym, k.numbers, k.gender, k.title, capitalised(alias))
            if k.core != own.core and alike not in seen:
                seen.add(alike)
                others.append(replace(own, core=k.core, tokens=k.tokens, acronym=k.acronym, numbers=k.numbers,
                                      gender=k.gender, title=k.title, name=alias))
        return replace(own, aliases=tuple(others)) if others else own

    def names(self) -> tuple["Side", ...]:
        return (self, *self.aliases)

    def agreements(self, other: "Side") -> int:
        """How many attribute keys the two entities carry one value of (once punctuation and case go)."""
        return len({k for k, _ in self.facts & other.facts})

    def near_agreements(self, other: "Side") -> int:
        """How many attribute keys, of those the two do not agree on exactly, hold a date or a code of
        each that nearly agree (:func:`near_values`: a key slipped, a month off)."""
        exact = {k for k, _ in self.facts & other.facts}
        mine: dict[str, list[str]] = {}
        for k, v in self.attributes:
            if k not in exact:
                mine.setdefault(k, []).append(v)
        return len({k for k, v in other.attributes if k in mine and any(near_values(u, v) for u in mine[k])})


def near_values(x: str, y: str) -> bool:
    """Two attribute values that are one date or one code typed twice: dates one digit apart, with
    day and month swapped, or at most 31 days apart; codes (one word with a digit, an "@" or a
    "://", 6+ characters) at most two characters apart."""
    from kgres.resolve.score.levels import attribute_level, normalise_value, parse_date

    if parse_date(x) and parse_date(y):
        return attribute_level("date", normalise_value("date", x), normalise_value("date", y)) <= 2
    if all(" " not in v.strip() and any(c.isdigit() or c == "@" for c in v) or "://" in v for v in (x, y)):
        cx, cy = normalise_value("code", x), normalise_value("code", y)
        return min(len(cx), len(cy)) >= 6 and attribute_level("code", cx, cy) <= 2
    return False


def fold_value(value: str) -> str:
    """An attribute value as agreements and blocking compare it: a date as YYYYMMDD, anything else
    as its letters and digits, case folded."""
    from kgres.resolve.score.levels import parse_date

    d = parse_date(value)
    return f"{d[0]:04d}{d[1]:02d}{d[2]:02d}" if d else "".join(c for c in value.casefold() if c.isalnum())


@dataclass(frozen=True)
class Semantic:
    """Embedding evidence for one pair (cosines in [-1, 1]; None when a vector is missing)."""

    ego: float | None = None
    neighbour: float | None = None
    structural: float | None = None
    same_chunk: bool = False

    def signals(self) -> dict[str, Any]:
        out: dict[str, Any] = {"same_chunk": self.same_chunk}
        for name, v in (("ego_cosine", self.ego), ("neighbour_cosine", self.neighbour),
                        ("structural_cosine", self.structural)):
            if v is not None:
                out[name] = round(v, 4)
        if self.ego is not None and self.neighbour is not None:
            out["ego_neighbour"] = round((self.ego + self.neighbour) / 2, 4)
        return out


