"""Comparison levels: for every candidate pair, one discrete level per comparison.

A :class:`Comparison` is a name, ordered :class:`Level` s (strongest evidence first, the last is
"nothing in common") and a function that, for a page of pairs (:class:`PairFrame`), returns one
level index per pair, or -1 where the comparison says nothing (a value missing on either side:
Fellegi-Sunter's *null* level, which neither adds nor subtracts weight).

The fixed comparisons (:data:`FIXED`) cover the name, the embeddings, neighbours, types, numbers,
descriptions and co-occurrence; :func:`attribute_comparison` adds one per attribute key present in the
graph (``attr:dob``, ``attr:postcode``, ``attr:price``...), with date-, year-, number-, code- and text-aware
levels chosen from the values themselves (:func:`attribute_kind`). :func:`comparisons` lists the ones
a graph gets; ``kgres explain --pair`` and the tests walk the same list.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import date
from itertools import repeat

import numpy as np
from rapidfuzz.distance import DamerauLevenshtein, JaroWinkler, Levenshtein
from rapidfuzz.fuzz import ratio, token_set_ratio

from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.normalize import LEGAL_SUFFIXES, capitalised, singular
from kgres.resolve.score.names import (acronym_of, initials_match, jaccard, name_part, numbers_apart, person_spelling,
                                       plain, typo_variant, unaccent)
from kgres.resolve.score.sides import Side

NULL = -1


@dataclass(frozen=True)
class Level:
    """One level of a comparison: a name, what it means, the prior share of matching pairs at this
    level (``m_prior``: what the model assumes before the graph's own pairs teach it; it weighs as a
    few dozen pairs, so a large graph overrides it and a tiny one leans on it), and whether its
    weight is adjusted by how common the shared value is (term frequency: two "John"s say less than
    two "Ebenezer"s)."""

    name: str
    description: str
    m_prior: float = 0.1
    tf: bool = False
    u_prior: float = 0.1  # the prior share of random pairs at this level (chance agreement)


@dataclass
class PairFrame:
    """A page of pairs: both sides of each pair, and what the database measured about the pair."""

    a: list[Side]
    b: list[Side]
    ego: np.ndarray  # text-embedding cosine, nan where a vector is missing
    neighbour: np.ndarray  # context-embedding cosine, nan where missing (no neighbours)
    same_chunk: np.ndarray  # bool: mentioned together in one chunk
    ambiguity: Ambiguity | None = None
    tokens: "TokenWeights | None" = None  # how much each shared name word says (None: all alike)
    _name_cache: list[tuple[int, Side, Side]] | None = field(default=None, repr=False)

    def __len__(self) -> int:
        return len(self.a)

    @classmethod
    def of(cls, pairs: Sequence[tuple[Side, Side]], ego: Sequence[float | None] | None = None,
           neighbour: Sequence[float | None] | None = None, same_chunk: Sequence[bool] | None = None,
           ambiguity: Ambiguity | None = None, tokens: "TokenWeights | None" = None) -> "PairFrame":
        n = len(pairs)

        def floats(v: Sequence[float | None] | None) -> np.ndarray:
            return np.array([np.nan if x is None else x for x in v], dtype=np.float64) if v is not None \
                else np.full(n, np.nan)

        return cls(a=[p[0] for p in pairs], b=[p[1] for p in pairs], ego=floats(ego), neighbour=floats(neighbour),
                   same_chunk=np.array(same_chunk if same_chunk is not None else [False] * n, dtype=bool),
                   ambiguity=ambiguity, tokens=tokens)

    def names(self) -> list[tuple[int, Side, Side]]:
        """Per pair: the name level and the two names (of each side's names) that reached it."""
        if self._name_cache is None:
            weights = self.tokens or UNIFORM
            self._name_cache = [best_names(x, y, weights) for x, y in zip(self.a, self.b)]
        return self._name_cache


@dataclass(frozen=True)
class Comparison:
    """A named, ordered list of levels and the function that assigns one to each pair of a page."""

    name: str
    description: str
    levels: tuple[Level, ...]
    compute: Callable[[PairFrame], np.ndarray] = field(compare=False, repr=False)
    kind: str = "fixed"  # "fixed", or the attribute kind: "date", "year", "number", "code", "text"
    ordered: bool = True  # a level never says more for a match than the levels before it (training keeps it so)
    grid: tuple[int, int] | None = None  # levels form a table, ordered down columns and along rows

    def level_names(self) -> list[str]:
        return [lv.name for lv in self.levels]


# -- name -------------------------------------------------------------------------------------

NAME_LEVELS = (
    Level("same_key", "the same name once case, punctuation, honorifics and plurals are folded", 0.37, tf=True,
          u_prior=0.002),
    Level("typo", "the same words in the same order, each equal or misspelt", 0.12, u_prior=0.001),
    Level("legal_suffix", "the same name but for a legal suffix (Acme Corporation / ACME Corp. / Acme, Inc.)", 0.03,
          u_prior=0.0005),
    Level("acronym", "one is written as the other's acronym (LLMs / Large Language Models)", 0.04, u_prior=0.0005),
    Level("explained", "one name is the other plus words the longer one's own attributes carry (a maker, a brand: "
          "Amber Waves Ale / Capitol City Amber Waves Ale, by Capitol City Brewing)", 0.06, u_prior=0.001),
    Level("person_name", "a person's name and its given name, surname or initials (Holmes / Sherlock Holmes), or "
          "an untyped proper name and its first or last word (Gates / Bill Gates)", 0.14, u_prior=0.005),
    Level("person_spelling", "a person's name typed again: as many words, each the other's, its initial or a "
          "spelling of it, in any order (Ran Cole / Ryan Cole, Rowe Caleb / Caleb Rowe)", 0.02, u_prior=0.001),
    Level("overlap_80", "words shared, weighted by rarity: 80% or more (reordered names, a common word added)", 0.10,
          u_prior=0.003),
    Level("overlap_60", "rarity-weighted words shared: 60% or more", 0.06, u_prior=0.005),
    Level("overlap_40", "rarity-weighted words shared: 40% or more", 0.04, u_prior=0.01),
    Level("overlap_20", "rarity-weighted words shared: 20% or more", 0.02, u_prior=0.03),
    Level("none", "no word shared, or only common ones", 0.02, u_prior=0.941),
)
(SAME_KEY, TYPO, LEGAL_SUFFIX, ACRONYM, EXPLAINED, PERSON_NAME, PERSON_SPELLING, OVERLAP_80, OVERLAP_60, OVERLAP_40,
 OVERLAP_20, NONE) = range(12)


@dataclass(frozen=True)
class TokenWeights:
    """How much a shared word says: log(N / entities whose name holds it), from a sample of the graph.
    Words the sample never saw twice weigh ``default`` (rare). "Ale", "feat", "interlude" weigh little;
    "Hyundai", "Challenor" a lot."""

    weights: dict[str, float] = field(default_factory=dict)
    default: float = 1.0

    def __call__(self, token: str) -> float:
        return self.weights.get(token, self.default)

    def matched(self, a: Sequence[str], b: Sequence[str]) -> list[tuple[str, str]]:
        """The words of ``a`` and ``b`` that are one word, rarest first: each word of ``a`` pairs
        with at most one of ``b``, equal, or 4+ letters and 75% alike (a transposition counting as
        one edit)."""
        pairs, rest = [], set(b)
        order = None  # b's words in order, read as those still unmatched
        weights, default = self.weights, self.default
        for w in sorted(set(a), key=lambda w: (-weights.get(w, default), w)):
            if w in rest:
                match = w
            elif len(w) < 4:
                continue
            else:
                order = order if order is not None else sorted(rest)
                uw = unaccent(w)
                match = next((v for v in order if v in rest and len(v) >= 4 and
                              DamerauLevenshtein.normalized_similarity(uw, unaccent(v)) >= 0.75), None)
            if match is not None:
                rest.discard(match)
                pairs.append((w, match))
        return pairs

    def overlap(self, a: Sequence[str], b: Sequence[str]) -> float:
        """Weighted Jaccard of two names' words, a word and its misspelling counting as one (:meth:`matched`),
        and words one name runs together one word (:func:`closed_up`)."""
        a = closed_up(a, b)
        b = closed_up(b, a)
        # the weights read from the dict, not through __call__: a name pair's words are weighed
        # some ten times, for most candidate pairs of every pass (the same sums, in the same order)
        weights, default = self.weights, self.default
        shared = sum(min(weights.get(w, default), weights.get(v, default)) for w, v in self.matched(a, b))
        union = sum(map(weights.get, set(a), repeat(default))) + sum(map(weights.get, set(b), repeat(default))) \
            - shared
        return shared / union if union > 0 else 0.0


def closed_up(a: Sequence[str], b: Sequence[str]) -> Sequence[str]:
    """``a`` with each run of two or three adjacent words that ``b`` writes as one word closed up
    into that word: "cyber shot" / "cybershot", "dsc w55" / "dscw55" (shops write model names both
    ways), "mary ann" / "maryann"."""
    if len(a) < 2 or not b:
        return a
    twos = [x + y for x, y in zip(a, a[1:])]
    joined = set(b).difference(a)
    if joined.isdisjoint(twos) and (len(a) < 3 or joined.isdisjoint([xy + z for xy, z in zip(twos, a[2:])])):
        return a
    out, i = [], 0
    while i < len(a):
        for n in (3, 2):
            if i + n <= len(a) and (word := "".join(a[i:i + n])) in joined:
                out.append(word)
                i += n
                break
        else:
            out.append(a[i])
            i += 1
    return tuple(out)


def words_swapped(a: Sequence[str], b: Sequence[str]) -> bool:
    """Each name has a word the other lacks ("Quantum Royal Laboratory" / "Quantum Applied
    Laboratory", "General Motors" / "General Electric"), as opposed to one name adding words to the
    other ("Amber Waves Ale" / "Capitol City Amber Waves Ale")."""
    pairs = UNIFORM.matched(a, b)
    return len(pairs) < len(set(a)) and len(pairs) < len(set(b))


def words_replaced(a: Sequence[str], b: Sequence[str]) -> bool:
    """Each name has words of its own, unlike the other's, before a word both end with: "mining
    generalized association rules" / "mining quantitative association rules", "Quantum Royal Laboratory"
    / "Quantum Applied Laboratory" (a word replaced inside a name makes another thing), as opposed to
    two tails after one title ("the case for enhanced abstract data types . 23rd vldb conf" / "... athens
    , greece": a library's two citations of one paper), a word added (no own word on one side), or
    words spelt, joined or split ("synopses for" / "synopsesfor", "continual" / "continuous": their own
    words, run together, are alike)."""
    if not a or not b or a[-1] != b[-1]:
        return False
    sa, sb = set(a), set(b)
    own_a, own_b = "".join(t for t in a if t not in sb), "".join(t for t in b if t not in sa)
    return bool(own_a) and bool(own_b) and ratio(own_a, own_b) < OWN_WORDS_ALIKE \
        and own_a[:SHARED_STEM] != own_b[:SHARED_STEM]


OWN_WORDS_ALIKE = 80  # rapidfuzz ratio (0-100) from which two names' own words are one spelling
SHARED_STEM = 5  # ... or the letters they both start with ("continual" / "continuous")


UNIFORM = TokenWeights()


def head_added(a: Side, b: Side) -> bool:
    """One common-noun phrase is the other with one more word at the end, its head: "Content management" /
    "Content management systems" name an activity and a kind of software; a compound names another
    thing than its modifier. Not persons, not proper names (every word capitalised: "Portland Maine"),
    not words with digits (a product's "32GB"): those add qualifiers, not heads."""
    short, long_ = (a, b) if len(a.tokens) < len(b.tokens) else (b, a)
    if "PERSON" in (a.type, b.type) or len(short.tokens) < 2 or len(long_.tokens) != len(short.tokens) + 1:
        return False
    if long_.tokens[:-1] != short.tokens or not long_.tokens[-1].isalpha():
        return False
    return not (capitalised(short.name) and capitalised(long_.name))


def titles_apart(a: Side, b: Side, weights: TokenWeights = UNIFORM, replaced: bool = False) -> bool:
    """Two merged entities carry names that share words but each keeps words of its own (a name
    level of the ``overlap`` bands and :func:`words_swapped`), whatever their closest names say:
    "mining generalized association rules" and "mining quantitative association rules", joined one
    pass earlier to a "mining association rules" each, stay two papers. Within a pass complete
    linkage keeps such groups apart (:mod:`kgres.resolve.cluster`); across passes an entity is
    compared by its closest names only, so without this check the short form that fits both bridges
    them (single linkage, one pass at a time). Not persons: a register's typed names scramble words
    ("Sofia Russell" / "foSia Russell" / "SoSfia Russell"), and the person constraints judge names.
    ``replaced``: only names that each replace a word inside (:func:`words_replaced`), the pairs that keep
    groups apart in clustering."""
    if a.type == "PERSON" or b.type == "PERSON" or not (a.aliases or b.aliases):
        return False
    for x in a.names():
        sx = set(x.tokens)
        for y in b.names():
            if sx.isdisjoint(y.tokens):
                continue
            if OVERLAP_80 <= name_level(x, y, weights) <= OVERLAP_20 and words_swapped(x.tokens, y.tokens) \
                    and (not replaced or words_replaced(x.tokens, y.tokens)):
                return True
    return False


def name_level(a: Side, b: Side, weights: TokenWeights = UNIFORM) -> int:
    """The level of :data:`NAME_LEVELS` two names reach (pure)."""
    if a.core and a.core == b.core:
        return SAME_KEY
    if typo_variant(a.core.split(), b.core.split()) or _spelt_alike(a.core, b.core):
        return TYPO
    if a.type in ORGANISATIONS and b.type in ORGANISATIONS and _only_legal_suffixes_differ(a, b):
        return LEGAL_SUFFIX
    if acronym_of(a, b) or acronym_of(b, a):
        return ACRONYM
    sa, sb = set(a.tokens), set(b.tokens)
    if sa and sb and sa != sb and (sa < sb or sb < sa):
        long_ = a if len(sa) > len(sb) else b
        if (sa ^ sb) <= long_.attribute_words:
            return EXPLAINED
    if a.type == "PERSON" and b.type == "PERSON":
        subset = bool(sa and sb) and (sa < sb or sb < sa)
        if subset and max(len(sa), len(sb)) <= 3 and name_part(a.tokens, b.tokens) and plain(a.core, b.core):
            return PERSON_NAME
        if initials_match(a.tokens, b.tokens):
            return PERSON_NAME
        if person_spelling(a.tokens, b.tokens) and plain(a.core, b.core):
            return PERSON_SPELLING
    if a.type is None and b.type is None and proper_part(a, b):
        return PERSON_NAME
    shared = weights.overlap(a.tokens, b.tokens)
    for level, floor in ((OVERLAP_80, 0.8), (OVERLAP_60, 0.6), (OVERLAP_40, 0.4), (OVERLAP_20, 0.2)):
        if shared >= floor:
            return level
    return NONE


ORGANISATIONS = frozenset({None, "ORGANIZATION"})


def proper_part(a: Side, b: Side) -> bool:
    """Untyped names, both written as proper names (every word capitalised), one a single word the other,
    of two or three words, begins or ends with: "Gates" / "Bill Gates", "Portland" / "Portland Oregon".
    Open-IE phrases carry no types, so a surname is otherwise only a word shared (cesi-ambiguous: "Bill
    Gates" / "Gates" was most of its missed pairs). Not "Content" / "Free content": a common noun's
    compound is another thing. Which holder the word names is the holder table's question
    (:func:`short_form_question`)."""
    short, long_ = (a, b) if len(a.tokens) < len(b.tokens) else (b, a)
    if len(short.tokens) != 1 or not 2 <= len(long_.tokens) <= 3:
        return False
    if short.tokens[0] not in (singular(long_.tokens[0]), long_.tokens[-1]):  # a single word is keyed singular
        return False
    return plain(long_.core) and capitalised(short.name) and capitalised(long_.name)


def _without_legal_suffix(side: Side) -> tuple[str, ...]:
    """The name's words without the legal suffixes that end it ("acme corp" -> "acme"); the suffix is
    evidence the model weighs, not part of a key: Acme Holdings and Acme Inc. may be two companies."""
    tokens = side.tokens
    while len(tokens) > 1 and singular(tokens[-1]) in LEGAL_SUFFIXES:
        tokens = tokens[:-1]
    return tokens


def _only_legal_suffixes_differ(a: Side, b: Side) -> bool:
    """The names are one once their legal suffixes go, and at least one had a suffix to lose: two
    names whose word lists are equal but whose keys differ (a stop word: "reminiscences on ..." /
    "reminiscences an ...") are not a company and its legal form."""
    x, y = _without_legal_suffix(a), _without_legal_suffix(b)
    return x == y and (len(x) < len(a.tokens) or len(y) < len(b.tokens))


def _spelt_alike(x: str, y: str) -> bool:
    """Two names of 8+ letters that are one spelling apart once spaces go ("ella crouch" / "ella
    crou ch", "amber black well" / "ambre blackwell"): Jaro-Winkler >= 0.93 on the letters and the
    same first letter, unless one adds whole words to the other and is under 24 letters. Jaro-Winkler
    rewards a shared start: over a long title cut short ("data mining using two-dimensional
    optimi...") that start is the evidence (DBLP-Scholar lost a tenth of its recall without it), over a
    short phrase and a word more it is not ("Content management" is no misspelling of "Content
    management system": cesi-ambiguous, 20k false pairs). Nor is a long name whose own words are not
    spellings of the other's (:func:`_own_words`)."""
    lx, ly = unaccent(x.replace(" ", "")), unaccent(y.replace(" ", ""))
    if min(len(lx), len(ly)) < 8 or lx[:1] != ly[:1]:
        return False  # the cheap part first: most pairs end here
    wx, wy = set(x.split()), set(y.split())
    if min(len(lx), len(ly)) < LONG_NAME:
        if wx != wy and (wx < wy or wy < wx):
            return False
    elif _own_words(wx - wy, wy - wx):  # a short name's scrambled word ("morris" / "mosrir") is a typo
        return False
    return JaroWinkler.similarity(lx, ly) >= 0.93


def _own_words(x: set[str], y: set[str]) -> bool:
    """Each name keeps whole words of its own, none a misspelling or a cut-short form of the other's:
    two versions ("Hey Mama ... [ Extended ]" / "Hey Mama ... [ Club Killers Remix ]"), not two
    spellings of one title ("... two-dimensional optimi" / "... two-dimensional optimized")."""
    return bool(x and y) and not any(u.startswith(v) or v.startswith(u) or
                                     DamerauLevenshtein.normalized_similarity(u, v) >= 0.75 for u in x for v in y)


LONG_NAME = 24  # letters: a name this long that starts like another is one of its spellings (a title cut short)


def best_names(a: Side, b: Side, weights: TokenWeights = UNIFORM) -> tuple[int, Side, Side]:
    """The strongest name level over every pair of the two entities' names (merged entities carry several)."""
    best = (len(NAME_LEVELS), a, b)
    for x in a.names():
        for y in b.names():
            lv = name_level(x, y, weights)
            if lv < best[0]:
                best = (lv, x, y)
                if lv == SAME_KEY:
                    return best
    return best


# The name and the text embedding are compared together: an entity's embedded text starts with its
# name, so two identical names also embed alike, and counted apart they would count one agreement
# twice (records without descriptions embed nothing but the name). Jointly, the model learns what a
# same-name pair whose texts differ says, and what a pair of synonyms sharing no word but embedding
# alike ("the Big Apple" / "New York City") says.
COSINE_BANDS = ((0.9, "cos>=0.9", 0.35), (0.8, "cos>=0.8", 0.3), (-2.0, "cos<0.8", 0.25))
COSINE_CHANCE, NO_VECTOR_CHANCE = (0.01, 0.04, 0.9), 0.05
NO_VECTOR = ("no vector", 0.1)
BANDS = len(COSINE_BANDS) + 1
NAME_AND_TEXT_LEVELS = tuple(
    Level(f"{n.name}, {band}", f"{n.description}; text embeddings {what}", n.m_prior * prior, tf=n.tf,
          u_prior=n.u_prior * chance)
    for n in NAME_LEVELS
    for band, what, prior, chance in [(b, f"at cosine {b[4:]}" if b[3] != "<" else "at cosine below 0.8", p, c)
                                      for (_, b, p), c in zip(COSINE_BANDS, COSINE_CHANCE)]
    + [(NO_VECTOR[0], "missing", NO_VECTOR[1], NO_VECTOR_CHANCE)])


def name_of_level(level: str) -> str:
    """The name level of a joint name-and-text level ("same_key" of "same_key, cos>=0.9")."""
    return level.split(", ", 1)[0]


def _name(frame: PairFrame) -> np.ndarray:
    names = np.fromiter((lv for lv, _, _ in frame.names()), dtype=np.int16, count=len(frame))
    band = np.full(len(frame), len(COSINE_BANDS), dtype=np.int16)
    for i in reversed(range(len(COSINE_BANDS))):
        band[frame.ego >= COSINE_BANDS[i][0]] = i
    band[np.isnan(frame.ego)] = len(COSINE_BANDS)
    return (names * BANDS + band).astype(np.int8)


SHORT_FORM_LEVELS = (
    Level("unique", "a short form (surname, given name, initials, acronym) only the other side carries in the graph",
          0.6, u_prior=0.3),
    Level("dominant", "a short form several could carry, whose most-mentioned holder is the other side", 0.25,
          u_prior=0.3),
    Level("ambiguous", "a short form several entities of the graph could carry (Holmes: Sherlock or Mycroft?)",
          0.15, u_prior=0.4),
)
_SHORT_RULES = {SAME_KEY: "same_key", ACRONYM: "acronym", PERSON_NAME: "person_subset"}


def short_form_question(lv: int, x: Side, y: Side) -> tuple[str | None, str] | None:
    """The type and name rule under which a pair's best names (``x``, ``y``, linked at name level
    ``lv``) ask the holder table about a short form, or None when their link is not one."""
    if lv not in _SHORT_RULES:
        return None
    shared = "PERSON" if "PERSON" in (x.type, y.type) else x.type
    if lv == PERSON_NAME and shared != "PERSON":
        return shared, "proper_part"
    return shared, "person_initials" if lv == PERSON_NAME and initials_match(x.tokens, y.tokens) else _SHORT_RULES[lv]


def _short_form(frame: PairFrame) -> np.ndarray:
    out = np.full(len(frame), NULL, dtype=np.int8)
    if frame.ambiguity is None:
        return out
    questions = [(i, x, y, q) for i, (lv, x, y) in enumerate(frame.names())
                 if (q := short_form_question(lv, x, y)) is not None]
    frame.ambiguity.prefetch(frame.ambiguity.key(x.core, x.tokens, y.core, y.tokens, *q) for _, x, y, q in questions)
    for i, x, y, question in questions:
        v = frame.ambiguity.short_form(x.core, x.tokens, y.core, y.tokens, *question)
        if v is not None and (v.holders >= 2 or x.core != y.core):
            out[i] = 0 if v.holders <= 1 else 1 if v.dominant_side else 2
    return out


# -- embeddings and context ---------------------------------------------------------------------

def _bands(values: np.ndarray, cuts: Sequence[float]) -> np.ndarray:
    """Level index by descending cut points (>= cuts[0] is 0 ...); NULL where the value is nan."""
    out = np.full(len(values), len(cuts), dtype=np.int8)
    for i in reversed(range(len(cuts))):
        out[values >= cuts[i]] = i
    out[np.isnan(values)] = NULL
    return out


def _banded(name: str, what: str, cuts: Sequence[float], attr: str, else_: str) -> Comparison:
    # weakly informative: agreement is evidence; its absence (duplicates extracted from different
    # chunks often have different neighbours) little evidence against
    priors = [0.15] * len(cuts) + [0.15 * len(cuts) / 2]
    chance = [0.5 ** (len(cuts) - i) for i in range(len(cuts) + 1)]
    levels = tuple(Level(f">={c:g}", f"{what} >= {c:g}", p, u_prior=u) for c, p, u in zip(cuts, priors, chance)) + \
        (Level(else_, f"{what} lower", priors[-1], u_prior=chance[-1]),)
    return Comparison(name, what, levels, lambda f: _bands(getattr(f, attr), cuts))


NEIGHBOUR_CUTS = (0.95, 0.85, 0.7, 0.5)


def _neighbours(frame: PairFrame) -> np.ndarray:
    out = np.full(len(frame), NULL, dtype=np.int8)
    for i, (x, y) in enumerate(zip(frame.a, frame.b)):
        if not (x.neighbours or x.typed_neighbours) or not (y.neighbours or y.typed_neighbours):
            continue
        j = max(jaccard(x.neighbours - {y.id}, y.neighbours - {x.id}),
                jaccard(x.typed_neighbours, y.typed_neighbours))
        out[i] = 0 if j >= 0.5 else 1 if j >= 0.2 else 2 if j > 0 else 3
    return out


def _types(frame: PairFrame) -> np.ndarray:
    return np.fromiter((NULL if not (x.type and y.type) else 0 if x.type == y.type else 1
                        for x, y in zip(frame.a, frame.b)), dtype=np.int8, count=len(frame))


def _numbers(frame: PairFrame) -> np.ndarray:
    def level(x: Side, y: Side) -> int:
        if not x.numbers and not y.numbers:
            return NULL
        if not (x.numbers and y.numbers):
            return 2
        if set(x.numbers) == set(y.numbers) or not any(numbers_apart(x, y)):
            return 0
        return 1  # both carry numbers, each one's the other does not carry of other kinds (or none)
    return np.fromiter((level(x, y) for x, y in zip(frame.a, frame.b)), dtype=np.int8, count=len(frame))


def _same_chunk(frame: PairFrame) -> np.ndarray:
    return np.where(frame.same_chunk, 0, 1).astype(np.int8)


def _description(frame: PairFrame) -> np.ndarray:
    def level(x: Side, y: Side) -> int:
        if not x.description or not y.description:
            return NULL
        s = token_set_ratio(x.description[:300].casefold(), y.description[:300].casefold()) / 100
        return 0 if s >= 0.9 else 1 if s >= 0.7 else 2 if s >= 0.5 else 3
    return np.fromiter((level(x, y) for x, y in zip(frame.a, frame.b)), dtype=np.int8, count=len(frame))


FIXED: tuple[Comparison, ...] = (
    Comparison("name", "how the two names compare (over every name each entity carries), together with how "
               "alike their texts embed", NAME_AND_TEXT_LEVELS, _name, grid=(len(NAME_LEVELS), BANDS)),
    Comparison("short_form", "whether the name link rests on a short form, and how many entities could carry it",
               SHORT_FORM_LEVELS, _short_form),
    _banded("neighbour_cosine", "cosine of what the two entities' neighbours talk about", NEIGHBOUR_CUTS,
            "neighbour", "<0.5"),
    Comparison("neighbours", "shared neighbours (Jaccard over neighbours or their type and name)", (
        Level(">=0.5", "half their neighbours or more in common", 0.15, u_prior=0.02),
        Level(">=0.2", "a fifth or more in common", 0.15, u_prior=0.05),
        Level(">0", "some in common", 0.15, u_prior=0.13),
        Level("none", "no neighbour in common", 0.55, u_prior=0.8)), _neighbours),
    Comparison("type", "whether the two entities have one type", (
        Level("same", "same type", 0.7, u_prior=0.4), Level("different", "different types", 0.3, u_prior=0.6)), _types),
    Comparison("numbers", "the numbers in the names (model numbers, sequels, years)", (
        Level("same", "the same numbers", 0.8, u_prior=0.2),
        Level("contained", "one's numbers among the other's, or the others of other kinds", 0.1, u_prior=0.1),
        Level("one_side", "only one name carries numbers", 0.1, u_prior=0.7)), _numbers),
    Comparison("description", "how alike the two descriptions read (token-set similarity)", (
        Level(">=0.9", "nearly the same description", 0.1, u_prior=0.01),
        Level(">=0.7", "much in common", 0.1, u_prior=0.05), Level(">=0.5", "some in common", 0.2, u_prior=0.2),
        Level("<0.5", "little in common", 0.6, u_prior=0.74)), _description),
    Comparison("same_chunk", "whether the two are mentioned together in one chunk", (
        Level("yes", "mentioned in one chunk", 0.1, u_prior=0.05),
        Level("no", "never in one chunk", 0.9, u_prior=0.95)),
        _same_chunk,
        ordered=False),
)


# -- attributes ---------------------------------------------------------------------------------

_MONTHS = {m: i for i, m in enumerate(("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct",
                                       "nov", "dec"), 1)}
_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[T ].*)?$")
_COMPACT = re.compile(r"^(1[5-9]\d\d|20\d\d)(\d\d)(\d\d)$")
_DMY = re.compile(r"^(\d{1,2})[-/.](\d{1,2})[-/.](\d{2}|\d{4})$")
_D_MON_Y = re.compile(r"^(\d{1,2})[- ]([a-z]{3})[a-z]*[- ,]+(\d{2}|\d{4})$")
_MON_D_Y = re.compile(r"^([a-z]{3})[a-z]*\.? (\d{1,2}),? (\d{4})$")
_NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
_CLOCK = re.compile(r"^(\d{1,3}):(\d\d)$")


def parse_date(value: str) -> tuple[int, int, int] | None:
    """(year, month, day) of a date written in one of the common ways, or None."""
    v = value.strip().casefold()
    if m := _ISO.match(v):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    elif m := _COMPACT.match(v):
        y, mo, d = int(m[1]), int(m[2]), int(m[3])
    elif m := _DMY.match(v):
        d, mo, y = int(m[1]), int(m[2]), int(m[3])
        y = y + (1900 if y >= 30 else 2000) if y < 100 else y
    elif m := _D_MON_Y.match(v):
        d, mo, y = int(m[1]), _MONTHS.get(m[2], 0), int(m[3])
        y = y + (1900 if y >= 30 else 2000) if y < 100 else y
    elif m := _MON_D_Y.match(v):
        mo, d, y = _MONTHS.get(m[1], 0), int(m[2]), int(m[3])
    else:
        return None
    if not (1 <= mo <= 12 and 1 <= d <= 31 and 1000 <= y <= 2999):
        return None
    return y, mo, d


def parse_number(value: str) -> float | None:
    """The quantity in a value ("$ 1.99", "8.70 %", "3:55" as seconds), or None."""
    v = value.strip()
    if m := _CLOCK.match(v):
        return int(m[1]) * 60 + int(m[2])
    found = _NUMBER.findall(v)
    if len(found) != 1:
        return None
    try:
        return float(found[0].replace(",", "."))
    except ValueError:
        return None


_YEAR = re.compile(r"^(1[89]\d\d|20\d\d|2100)(?:\.0+)?$")


def parse_year(value: str) -> int | None:
    """A year written alone ("1999", or "1999.0" from a spreadsheet's float column), or None. Only
    1800-2100: other four-digit numbers are more often codes (a postcode, a model number)."""
    m = _YEAR.match(value.strip())
    return int(m[1]) if m else None


def _code(value: str) -> str:
    return re.sub(r"[^0-9a-z]", "", unaccent(value.casefold()))


def attribute_kind(values: Sequence[str]) -> str:
    """How a key's values compare, judged from a sample: "date", "year" (a year alone: a paper's, a
    film's, a founding; years are counted apart, not by their ratio), "number" (quantities with decimals,
    units or currency), "code" (postcodes, ids, phone numbers, emails, URLs: one word with digits or
    an address), or "text"."""
    vals = [v for v in values if v.strip()][:500]
    if not vals:
        return "text"
    share = lambda test: sum(1 for v in vals if test(v)) / len(vals)  # noqa: E731
    if share(lambda v: parse_date(v) is not None) >= 0.8:
        return "date"
    if share(lambda v: parse_year(v) is not None) >= 0.9:
        return "year"
    if share(lambda v: parse_number(v) is not None) >= 0.8 and \
            share(lambda v: bool(re.search(r"[.,:%$€£]\d|\d\s*[%$€£]|[$€£]", v))) >= 0.3:
        return "number"
    if share(lambda v: " " not in v.strip() and (any(c.isdigit() for c in v) or "@" in v or "://" in v)) >= 0.8 \
            or share(lambda v: bool(re.fullmatch(r"[\d\s()+./-]{5,}", v.strip()))) >= 0.8:
        return "code"
    return "text"


ATTRIBUTE_LEVELS = {
    # The bands of a date of birth typed twice: a slip of one key, a month or a year off, a decade off
    # (the levels Splink's date-of-birth comparison uses, for the errors real records carry).
    "date": (Level("exact", "the same date", 0.7, tf=True, u_prior=0.002),
             Level("one_edit", "one digit apart, or day and month swapped", 0.1, u_prior=0.005),
             Level("within_month", "at most 31 days apart", 0.04, u_prior=0.003),
             Level("within_year", "at most a year apart", 0.06, u_prior=0.03),
             Level("within_10_years", "at most ten years apart", 0.05, u_prior=0.28),
             Level("different", "further apart, or not comparable", 0.05, u_prior=0.68)),
    # A year is exact or a year off (a conference paper and its journal version; a film's release
    # and its DVD's), and two years a decade apart say as little as two a century apart.
    "year": (Level("exact", "the same year", 0.75, tf=True, u_prior=0.05),
             Level("one_apart", "a year apart", 0.15, u_prior=0.09),
             Level("within_5", "at most five years apart", 0.05, u_prior=0.3),
             Level("different", "further apart", 0.05, u_prior=0.56)),
    "number": (Level("exact", "the same quantity", 0.7, tf=True, u_prior=0.05),
               Level("within_5%", "within 5% of each other", 0.15, u_prior=0.1),
               Level("within_20%", "within 20%", 0.08, u_prior=0.2),
               Level("different", "further apart", 0.07, u_prior=0.65)),
    "code": (Level("exact", "the same code once punctuation goes", 0.8, tf=True, u_prior=0.005),
             Level("one_edit", "one character apart", 0.1, u_prior=0.01),
             Level("two_edits", "two characters apart", 0.04, u_prior=0.02),
             Level("close", "a long code mistyped in a few places (8+ characters, Jaro-Winkler >= 0.92: an "
                   "email, a URL)", 0.03, u_prior=0.005),
             Level("different", "different codes", 0.03, u_prior=0.96)),
    "text": (Level("exact", "the same text once case and punctuation go", 0.7, tf=True, u_prior=0.02),
             Level("close", "a spelling apart (Jaro-Winkler >= 0.92, or token-set >= 0.9)", 0.15, u_prior=0.02),
             Level("partial", "words in common (token-set >= 0.6)", 0.08, u_prior=0.1),
             Level("different", "different", 0.07, u_prior=0.86)),
}


def normalise_value(kind: str, value: str) -> str:
    """The form in which exact matches (and term frequencies) of an attribute value are counted."""
    if kind == "date":
        d = parse_date(value)
        return f"{d[0]:04d}{d[1]:02d}{d[2]:02d}" if d else _code(value)
    if kind == "year":
        y = parse_year(value)
        return str(y) if y is not None else _code(value)
    if kind == "number":
        n = parse_number(value)
        return f"{n:g}" if n is not None else _code(value)
    if kind == "code":
        return _code(value)
    return " ".join(re.sub(r"[^\w]+", " ", unaccent(value.casefold())).split())


def _days_apart(x: str, y: str) -> int | None:
    """Days between two YYYYMMDD dates; None when either is not a real date."""
    try:
        a = date(int(x[:4]), int(x[4:6]), int(x[6:8]))
        b = date(int(y[:4]), int(y[4:6]), int(y[6:8]))
    except ValueError:
        return None
    return abs((a - b).days)


def attribute_level(kind: str, x: str, y: str) -> int:
    """The level two values of one attribute reach (both normalised with :func:`normalise_value`)."""
    if x == y:
        return 0
    if kind == "date":
        if len(x) == 8 and len(y) == 8 and x.isdigit() and y.isdigit():
            if Levenshtein.distance(x, y) <= 1 or (x[:4] == y[:4] and x[4:6] == y[6:8] and x[6:8] == y[4:6]):
                return 1
            days = _days_apart(x, y)
            if days is not None:
                return 2 if days <= 31 else 3 if days <= 366 else 4 if days <= 3653 else 5
            return 3 if x[:4] == y[:4] else 5
        return 5
    if kind == "year":
        if not (x.isdigit() and y.isdigit()):
            return 3
        apart = abs(int(x) - int(y))
        return 1 if apart <= 1 else 2 if apart <= 5 else 3
    if kind == "number":
        try:
            a, b = float(x), float(y)
        except ValueError:
            return 3
        scale = max(abs(a), abs(b))
        if scale == 0 or math.isnan(scale):
            return 3
        rel = abs(a - b) / scale
        return 1 if rel <= 0.05 else 2 if rel <= 0.2 else 3
    if kind == "code":
        d = Levenshtein.distance(x, y, score_cutoff=2)
        if d <= 2:
            return d
        return 3 if min(len(x), len(y)) >= 8 and JaroWinkler.similarity(x, y) >= 0.92 else 4
    if JaroWinkler.similarity(x, y) >= 0.92 or token_set_ratio(x, y) >= 90:
        return 1
    return 2 if token_set_ratio(x, y) >= 60 else 3


def attribute_comparison(key: str, kind: str) -> Comparison:
    """The comparison of attribute ``key`` for values of ``kind``: the best level over the values
    the two entities carry; NULL where either has none."""
    def compute(frame: PairFrame) -> np.ndarray:
        out = np.full(len(frame), NULL, dtype=np.int8)
        for i, (x, y) in enumerate(zip(frame.a, frame.b)):
            xs, ys = attribute_values(x, key, kind), attribute_values(y, key, kind)
            if xs and ys:
                out[i] = min(attribute_level(kind, u, v) for u in xs for v in ys)
        return out

    return Comparison(f"attr:{key}", f"attribute '{key}' ({kind})", ATTRIBUTE_LEVELS[kind], compute, kind=kind)


def attribute_values(side: Side, key: str, kind: str) -> list[str]:
    """The normalised values ``side`` carries for ``key`` (empty ones dropped)."""
    return [n for k, v in side.attributes if k == key and (n := normalise_value(kind, v))]


def comparisons(attributes: Sequence[tuple[str, str]] = ()) -> list[Comparison]:
    """The comparisons of a graph: the fixed ones, then one per (attribute key, kind), in the order given."""
    return [*FIXED, *(attribute_comparison(k, kind) for k, kind in attributes)]


def vectors(frame: PairFrame, comps: Sequence[Comparison]) -> np.ndarray:
    """The comparison vectors of a page: an int8 matrix, one row per pair, one column per comparison."""
    if not len(frame):
        return np.zeros((0, len(comps)), dtype=np.int8)
    return np.stack([c.compute(frame) for c in comps], axis=1).astype(np.int8)


def tf_values(frame: PairFrame, comps: Sequence[Comparison]) -> list[list[str | None]]:
    """Per pair and comparison, the shared value behind a term-frequency-adjusted exact level (the
    name key, the attribute value), else None."""
    # what each comparison reads is looked up once, not per pair: a page is thousands of pairs
    named = [k for k, c in enumerate(comps) if c.name == "name"]
    attributes = [(k, c.name.split(":", 1)[1], c.kind) for k, c in enumerate(comps)
                  if c.name != "name" and c.kind != "fixed"]
    blank: list[str | None] = [None] * len(comps)
    out: list[list[str | None]] = []
    names = frame.names()
    for i, (x, y) in enumerate(zip(frame.a, frame.b)):
        row = blank.copy()
        lv, nx, _ = names[i]
        if lv == SAME_KEY:  # every band of same_key is TF-adjusted
            for k in named:
                row[k] = nx.core
        if x.attributes and y.attributes:  # an entity without attributes has no value of any key
            for k, key, kind in attributes:
                shared = set(attribute_values(x, key, kind)) & set(attribute_values(y, key, kind))
                row[k] = min(shared) if shared else None
        out.append(row)
    return out
