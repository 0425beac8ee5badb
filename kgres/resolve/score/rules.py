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

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from kgres.resolve.ambiguity import Ambiguity
from kgres.resolve.score.constraints import RULE_CONSTRAINTS, name_conflict, pair_conflict
from kgres.resolve.score.names import jaccard, name_similarity
from kgres.resolve.score.sides import Semantic, Side

Band = Literal["auto", "review", "reject"]


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
class PairScore:
    score: float
    band: Band
    known: bool
    cannot_link: str | None
    signals: dict[str, Any] = field(default_factory=dict)


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
    name, how = name_similarity(a, b)
    signals["name"], signals["name_rule"] = round(name, 4), how
    reason = name_conflict(a, b, RULE_CONSTRAINTS) or pair_conflict(not_same_as, predicates_between)
    signals["neighbour_jaccard"] = round(jaccard(a.neighbours, b.neighbours), 4)
    signals["typed_neighbour_jaccard"] = round(jaccard(a.typed_neighbours, b.typed_neighbours), 4)
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
