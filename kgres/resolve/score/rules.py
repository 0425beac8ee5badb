"""The rule scorer: signals per pair of entities, one score, a band, and cannot-link reasons.

:func:`compare` is pure: given two entities' keys and context it returns the score, the band, the
signal values and, when merging would be wrong whatever the score, a *cannot-link* reason:

- differing numbers ("iPhone 7" / "iPhone 8", "Apple I" / "Apple II");
- persons whose honorifics differ in gender ("Mr. Fezziwig" / "Mrs. Fezziwig");
- two persons with the same surname and different given names ("Sherlock" / "Mycroft Holmes"), or
  with different surnames ("Ada Lovelace" / "Ada Turing");
- different types with different names ("Baker Street" GEO may merge with "Baker Street"
  ORGANIZATION, not with "Baker Street Irregulars");
- a recorded ``NOT_SAME_AS`` (human or judge);
- a non-synonym relation between them (merging "Sherlock Holmes -BROTHER_OF-> Mycroft Holmes"
  would make Sherlock his own brother).

Name signals: same core key (1.0); acronym of the other (0.92); for persons, one name's words
contained in the other's ("Holmes" in "Sherlock Holmes") or matching initials ("J. Watson") (0.88);
otherwise a fuzzy blend of token-set ratio and Jaro-Winkler (rapidfuzz), which reaches the auto band
only for typo variants (same words, each equal or misspelt) and is capped at review for word subsets
and different words. Shared neighbours add up to 0.1 (Jaccard over neighbour ids, or over their
type and name key, whichever is higher: duplicates' neighbours are often duplicates themselves). A pair whose names share nothing (no word, no
acronym, no close spelling) is *unknown*: the name tells nothing either way, so clustering neither
links through it nor counts it against a group.

Embedding signals (from ``embed``), recorded on every pair: ``ego_cosine`` (text embeddings),
``neighbour_cosine`` (what the two entities' neighbours talk about), ``ego_neighbour`` (their mean),
``structural_cosine`` (FastRP) and ``same_chunk`` (mentioned together in one chunk). They never lift
a pair to auto and never veto: embeddings rank Mycroft closest to Sherlock Holmes, so on their own
they are evidence for review, not for merging. An unknown pair whose ego cosine reaches
``semantic_review`` (and whose neighbours do not disagree) goes to the review band, where a person
or the LLM judge decides.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from rapidfuzz.distance import JaroWinkler, Levenshtein
from rapidfuzz.fuzz import token_set_ratio

from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.normalize import QUALIFIERS, STOP_WORDS, name_keys
from kgres.resolve.score.identifiers import identifier_conflict, identifiers_of

Band = Literal["auto", "review", "reject"]
SYNONYM_PREDICATES = frozenset({"same_as", "alias_of", "also_known_as", "aka", "known_as", "synonym_of",
                                "abbreviation_of", "abbreviates", "acronym_of", "short_for", "renamed_to",
                                "formerly_known_as", "related_to",
                                # copulas: "X is Y" states identity or kind, not a relation between two things
                                "be", "is", "are", "was", "were", "been", "be_supposed_to_be", "become",
                                "becomes", "be_also", "be_call", "be_called", "be_know_as", "be_known_as"})


class ScoreConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    auto_threshold: float = Field(0.88, gt=0, le=1)
    review_threshold: float = Field(0.6, ge=0, lt=1)
    semantic_review: float = Field(0.85, ge=0, le=1)  # ego cosine that sends an unknown pair to review
    neighbour_floor: float = Field(0.3, ge=-1, le=1)  # ... unless the neighbour cosine is below this
    # Shared-neighbour Jaccard that lets an ambiguous short form ("Holmes") link on context: one
    # common neighbour among a large merged entity's many is chance, not context.
    ambiguous_context: float = Field(0.15, gt=0, le=1)
    batch_size: int = Field(2000, ge=1, le=100_000)

    @model_validator(mode="after")
    def _ordered(self) -> "ScoreConfig":
        if self.review_threshold >= self.auto_threshold:
            raise ValueError("review_threshold must be below auto_threshold")
        return self


@dataclass(frozen=True)
class Side:
    """What compare needs to know about one entity."""

    id: str
    core: str
    tokens: tuple[str, ...]
    acronym: str | None
    numbers: tuple[str, ...]
    type: str | None
    gender: str | None = None
    neighbours: frozenset[str] = frozenset()
    typed_neighbours: frozenset[str] = frozenset()  # "TYPE|name key" of each neighbour
    identifiers: frozenset[tuple[str, str]] = frozenset()  # (key, value) from the mentions' attributes
    aliases: tuple["Side", ...] = ()  # the other names a merged entity already carries

    @classmethod
    def from_row(cls, r: dict[str, Any]) -> "Side":
        own = cls(id=r["id"], core=r["key_core"] or "", tokens=tuple(r["key_tokens"] or ()),
                  acronym=r.get("key_acronym"), numbers=tuple(r["key_numbers"] or ()), type=r.get("norm_type"),
                  gender=r.get("key_gender"), neighbours=frozenset(r.get("neighbours") or ()),
                  typed_neighbours=frozenset(r.get("typed_neighbours") or ()),
                  identifiers=identifiers_of(r.get("attributes") or ()))
        others = []
        for alias in sorted(set(r.get("aliases") or ()))[:MAX_ALIASES]:
            k = name_keys(alias, r.get("norm_type"))
            if k.core != own.core:
                others.append(cls(id=r["id"], core=k.core, tokens=k.tokens, acronym=k.acronym, numbers=k.numbers,
                                  type=own.type, gender=k.gender, neighbours=own.neighbours,
                                  typed_neighbours=own.typed_neighbours, identifiers=own.identifiers))
        return replace(own, aliases=tuple(others))

    def names(self) -> tuple["Side", ...]:
        return (self, *self.aliases)


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


@dataclass(frozen=True)
class PairScore:
    score: float
    band: Band
    known: bool
    cannot_link: str | None
    signals: dict[str, Any] = field(default_factory=dict)


MAX_ALIASES = 20


def compare(a: Side, b: Side, cfg: ScoreConfig = ScoreConfig(), not_same_as: bool = False,
            predicates_between: Sequence[str] = (), semantic: Semantic | None = None,
            ambiguity: Ambiguity | None = None) -> PairScore:
    """Score one pair of entities over all their names (see module docstring). Pure, deterministic.

    A merged entity is a set of names: any pair of its names with a cannot-link reason vetoes (an
    entity holding "Sophie Goldwasser" never takes "Edsger Goldwasser", whatever its own name), and
    otherwise the best-scoring pair of names speaks for the entities. With ``ambiguity`` (the graph's
    holder table), a short form that several entities could carry ("Berners", "AUR") reaches auto
    only with shared neighbours or a dominant holder; otherwise the pair is unknown, in review.
    """
    if not a.aliases and not b.aliases:
        best = _compare_names(a, b, cfg, not_same_as, predicates_between, ambiguity)
    else:
        results = [_compare_names(x, y, cfg, not_same_as, predicates_between, ambiguity)
                   for x in a.names() for y in b.names()]
        vetoes = [r for r in results if r.cannot_link]
        best = vetoes[0] if vetoes else max(results, key=lambda r: (r.known, r.score))
    return _with_semantic(best, semantic, cfg) if semantic is not None else best


def _with_semantic(p: PairScore, sem: Semantic, cfg: ScoreConfig) -> PairScore:
    """Record the embedding signals; an unknown pair that reads alike goes to review (never auto)."""
    signals = {**p.signals, **sem.signals()}
    if (p.known or p.cannot_link or sem.ego is None or sem.ego < cfg.semantic_review
            or (sem.neighbour is not None and sem.neighbour < cfg.neighbour_floor)):
        return replace(p, signals=signals)
    span = cfg.auto_threshold - cfg.review_threshold
    lift = (sem.ego - cfg.semantic_review) / max(1e-9, 1 - cfg.semantic_review)
    score = round(min(cfg.auto_threshold - 0.01, cfg.review_threshold + 0.5 * span * lift), 4)
    return replace(p, score=max(p.score, score), band="review", signals={**signals, "semantic_review": True})


def _compare_names(a: Side, b: Side, cfg: ScoreConfig, not_same_as: bool,
                   predicates_between: Sequence[str], ambiguity: Ambiguity | None = None) -> PairScore:
    """Score one pair of names."""
    signals: dict[str, Any] = {}
    name, how = _name_similarity(a, b)
    signals["name"], signals["name_rule"] = round(name, 4), how
    person = a.type == "PERSON" and b.type == "PERSON"
    reason = None
    if a.numbers != b.numbers and (a.numbers or b.numbers):
        reason = f"numbers differ: {' '.join(a.numbers) or '-'} vs {' '.join(b.numbers) or '-'}"
    elif person and a.gender and b.gender and a.gender != b.gender:
        reason = f"honorifics differ in gender: {a.gender} vs {b.gender}"
    elif person and _qualifiers(a.tokens) != _qualifiers(b.tokens):
        reason = (f"different qualifiers: {' '.join(sorted(_qualifiers(a.tokens))) or '-'} vs "
                  f"{' '.join(sorted(_qualifiers(b.tokens))) or '-'}")
    elif person and _given_names_conflict(a.tokens, b.tokens):
        reason = f"different given names: {a.tokens[0]} vs {b.tokens[0]}"
    elif person and _surnames_conflict(a.tokens, b.tokens):
        reason = f"different surnames: {a.tokens[-1]} vs {b.tokens[-1]}"
    elif conflict := identifier_conflict(a.identifiers, b.identifiers):
        reason = f"identifiers differ: {conflict}"
    elif a.type and b.type and a.type != b.type and a.core != b.core and not (a.identifiers & b.identifiers):
        reason = f"types differ: {a.type} vs {b.type}"
    elif not_same_as:
        reason = "recorded NOT_SAME_AS"
    else:
        others = sorted({p for p in predicates_between if _pred(p) not in SYNONYM_PREDICATES})
        if others:
            reason = f"related by {', '.join(others)}: merging would create a self-loop"
    signals["neighbour_jaccard"] = round(_jaccard(a.neighbours, b.neighbours), 4)
    signals["typed_neighbour_jaccard"] = round(_jaccard(a.typed_neighbours, b.typed_neighbours), 4)
    jacc = max(signals["neighbour_jaccard"], signals["typed_neighbour_jaccard"])
    signals["type"] = "same" if a.type == b.type else ("unknown" if not (a.type and b.type) else "different")
    known = how != "disjoint"
    score = 0.0 if reason else min(1.0, name + (0.1 * jacc if name >= cfg.review_threshold else 0.0))
    shared_ids = sorted(a.identifiers & b.identifiers)
    if shared_ids and not reason:
        # One identifier (an ORCID, a Wikidata id, an ISBN...) is one thing, whatever the names say.
        signals["shared_identifier"] = f"{shared_ids[0][0]}={shared_ids[0][1]}"
        score, known, how = max(score, cfg.auto_threshold), True, "identifier"
        signals["name_rule"] = how
    elif not known and not reason:
        # Names that share nothing never reach auto, whatever the context adds: neighbours say where
        # to look ("lunch" / "lunchtimes" share all of theirs), not that two things are one.
        score = min(score, round(cfg.auto_threshold - 0.01, 4))
    if ambiguity is not None and known and not reason and jacc < cfg.ambiguous_context:
        shared_type = "PERSON" if "PERSON" in (a.type, b.type) else a.type
        v = ambiguity.verdict(a.core, a.tokens, b.core, b.tokens, shared_type, how)
        if v is not None and not v.dominant_side:
            # "Berners" may be any of the graph's Berners: the name alone decides nothing here.
            signals["ambiguous_name"] = v.holders
            score, known = min(score, round((cfg.auto_threshold + cfg.review_threshold) / 2, 4)), False
    if reason:
        signals["cannot_link"] = reason
    band: Band = "auto" if score >= cfg.auto_threshold else "review" if score >= cfg.review_threshold else "reject"
    return PairScore(score=round(score, 4), band=band, known=known or reason is not None, cannot_link=reason,
                     signals=signals)


def _jaccard(x: frozenset[str], y: frozenset[str]) -> float:
    union = x | y
    return len(x & y) / len(union) if union else 0.0


def _pred(p: str) -> str:
    return p.strip().lower().replace(" ", "_").replace("-", "_")


def _name_similarity(a: Side, b: Side) -> tuple[float, str]:
    if a.core and a.core == b.core:
        return 1.0, "same_key"
    if _acronym_of(a, b) or _acronym_of(b, a):
        return 0.92, "acronym"
    sa, sb = set(a.tokens), set(b.tokens)
    subset = bool(sa and sb) and (sa < sb or sb < sa)
    if a.type == "PERSON" and b.type == "PERSON":
        if subset and max(len(sa), len(sb)) <= 3 and _name_part(a.tokens, b.tokens) and _plain(a.core, b.core):
            return 0.88, "person_subset"
        if _initials_match(a.tokens, b.tokens):
            return 0.88, "person_initials"
    fuzzy = 0.5 * token_set_ratio(a.core, b.core) / 100 + 0.5 * JaroWinkler.similarity(a.core, b.core)
    if not (sa & sb) and fuzzy < 0.85:
        return fuzzy, "disjoint"
    if subset:
        # "Baker Street" in "Baker Street Irregulars", "The Dinner" in "The Dinner by the Fire": a word
        # subset is a reason to look, never enough to merge on the name alone.
        return min(fuzzy, 0.75), "subset"
    if not _typo_variant(a.core.split(), b.core.split()):
        # "a healthy diet" / "a healthy meal": close strings, different words. Review at most.
        return min(fuzzy, 0.75), "fuzzy_words_differ"
    return fuzzy, "typo"


def _acronym_of(long_: Side, short: Side) -> bool:
    """``short`` is written as an acronym ("LLMs", "AUR": its own acronym key) of multi-word ``long_``.
    A lowercase word is not an acronym: "cf" is not "a comfort food"."""
    return bool(long_.acronym and len(long_.tokens) >= 2 and len(short.tokens) == 1
                and short.acronym == short.core == long_.acronym)


def _typo_variant(a: list[str], b: list[str]) -> bool:
    """Same words in the same order, each equal or a misspelling of the other ("sherlok"/"sherlock").
    Words under six letters must match exactly: "cain"/"chain" and "earth"/"hearth" are different words.
    A misspelling keeps its first letter (unless a letter there is non-ASCII, as in a transliterated
    "Ødegaard"/"Odegaard"): "winner"/"dinner" are different words."""
    if len(a) != len(b):
        return False
    return all(x == y or _unaccent(x) == _unaccent(y) or _misspelt(_unaccent(x), _unaccent(y)) for x, y in zip(a, b))


def _misspelt(x: str, y: str) -> bool:
    same_start = x[:1] == y[:1] or not (x[:1].isascii() and y[:1].isascii())
    return same_start and min(len(x), len(y)) >= 6 and Levenshtein.normalized_similarity(x, y) >= 0.8


def same_name_tokens(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two multi-word names that can be one entity's spellings ("ada shannon" / "ada shnnon")."""
    return _typo_variant(list(a), list(b))


def _unaccent(word: str) -> str:
    """Accents folded ("josé" -> "jose"), so transliterated and accented spellings compare equal."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def _plain(*cores: str) -> bool:
    """No stop word in any core: "ragged men and boys" is a group of people, not a person's name."""
    return not any(w in STOP_WORDS for c in cores for w in c.split())


def _name_part(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """The shorter person name is the longer one's given name(s) or surname, in place."""
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return tuple(long_[:len(short)]) == short or tuple(long_[-len(short):]) == short


def _qualifiers(tokens: tuple[str, ...]) -> frozenset[str]:
    return frozenset(t for t in tokens if t in QUALIFIERS)


def _initials_match(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Same surname, and each given name of the shorter is the other's or its initial ("j" ~ "john")."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1] or len(a) != len(b):
        return False
    return all(x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y))
               for x, y in zip(a[:-1], b[:-1]))


def _surnames_conflict(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Two full names (2+ words each) whose surnames differ, and not by a typo: different people."""
    if len(a) < 2 or len(b) < 2 or a[-1] == b[-1]:
        return False
    return not _typo_variant([a[-1]], [b[-1]])


def _given_names_conflict(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Same surname, different given names that are neither initials nor spelling variants."""
    if len(a) < 2 or len(b) < 2 or a[-1] != b[-1]:
        return False
    x, y = _unaccent(a[0]), _unaccent(b[0])
    if x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
        return False
    return JaroWinkler.similarity(x, y) < 0.9
