"""``kgres judge``: an LLM decides the review-band pairs that rules and embeddings left open.

For each undecided review pair (best score first) the model sees both entities' names, aliases,
types, descriptions, a few source chunk excerpts and their neighbours, and answers
``{decision: same|different|unsure, confidence, evidence[], canonical_name?}``:

- ``same`` with confidence >= ``min_confidence`` merges the two, unless a cannot-link rule of
  ``score`` forbids it (numbers, given names, gender, types, a non-synonym relation): the judge
  never overrides the guards;
- ``different`` with confidence >= ``min_confidence`` records ``NOT_SAME_AS``;
- ``unsure``, low confidence, a timeout, an error or malformed JSON leave the pair in review.

Every verdict is stored on the pair's ``CANDIDATE`` edges (``judge``, ``judge_model``,
``judge_prompt``) and every decision names the model and prompt version. Calls run ``concurrency``
at a time; decisions are applied in order, in the calling thread.
"""

from __future__ import annotations

import json
from typing import Literal

from pydantic import BaseModel, Field

from kgres.db import Database
from kgres.decide import ReviewPair, decide, review
from kgres.llm import LLM, Usage, ask_each
from kgres.score import Side, compare

PROMPT_VERSION = "judge-v2"  # v2: each record carries its entity id
SYSTEM = (
    "You resolve entities in a knowledge graph extracted from text. Given two entity records, decide "
    "whether they denote the same real-world thing. Use the names, types, descriptions, source excerpts "
    "and neighbours. People who share a surname, products with different numbers, and places that are "
    "near each other are different things. Answer 'unsure' when the records do not settle it. Reply with "
    "one JSON object: {\"decision\": \"same\"|\"different\"|\"unsure\", \"confidence\": 0..1, "
    "\"evidence\": [short reasons quoting the records], \"canonical_name\": the best name if same}.")


class Verdict(BaseModel):
    decision: Literal["same", "different", "unsure"]
    confidence: float = Field(ge=0, le=1)
    evidence: list[str] = []
    canonical_name: str | None = None


class JudgeStats(BaseModel):
    pairs: int
    merged: int
    rejected: int
    left_in_review: int
    blocked_by_rules: int
    failed: int
    stopped_by_budget: bool
    usage: Usage


def judge(db: Database, llm: LLM, limit: int = 100, min_confidence: float = 0.8) -> JudgeStats:
    """Judge up to ``limit`` review pairs (see module docstring)."""
    pairs = review(db, limit)
    contexts = {i: _context(db, i) for p in pairs for i in (p.a_id, p.b_id)}
    batch = ask_each(llm, pairs, lambda p: llm.ask(PROMPT_VERSION, SYSTEM,
                                                    _prompt(contexts[p.a_id], contexts[p.b_id]), Verdict))
    answers: list[Verdict | str | None] = [None] * len(pairs)  # None: not asked (budget spent)
    for i, v in batch.answered:
        answers[i] = v
    for i, err in batch.failed:
        answers[i] = err
    merged = rejected = left = blocked = failed = 0
    gone: set[str] = set()  # entities absorbed by an earlier merge in this loop
    for p, v in zip(pairs, answers):
        if v is None:
            left += 1
            continue
        if isinstance(v, str):
            failed += 1
            _record(db, p, {"error": v}, llm)
            continue
        _record(db, p, v.model_dump(), llm)
        if p.a_id in gone or p.b_id in gone or v.decision == "unsure" or v.confidence < min_confidence:
            left += 1
            continue
        reason = json.dumps({"model": llm.model, "prompt": PROMPT_VERSION, "confidence": v.confidence,
                             "evidence": v.evidence}, sort_keys=True)
        who = f"llm:{llm.model}"
        if v.decision == "different":
            decide(db, "reject", p.a_id, p.b_id, reason=reason, decided_by=who)
            rejected += 1
        elif _cannot_link(db, p):
            blocked += 1
        else:
            d = decide(db, "accept", p.a_id, p.b_id, reason=reason, decided_by=who, method="llm",
                       confidence=v.confidence)
            gone.add(d.b)
            merged += 1
    return JudgeStats(pairs=len(pairs), merged=merged, rejected=rejected, left_in_review=left,
                      blocked_by_rules=blocked, failed=failed, stopped_by_budget=batch.stopped_by_budget,
                      usage=llm.usage)


def _context(db: Database, entity_id: str) -> dict:
    rows = db.query("judge_context", id=entity_id, chunks=3, chars=400, neighbours=10)
    return rows[0] if rows else {"id": entity_id, "name": entity_id}


def _prompt(a: dict, b: dict) -> str:
    def block(label: str, e: dict) -> str:
        lines = [f"{label}: {e.get('name')} (type: {e.get('type') or 'unknown'})", f"  id: {e.get('id')}"]
        if e.get("aliases"):
            lines.append("  also called: " + "; ".join(e["aliases"][:10]))
        if e.get("description"):
            lines.append("  description: " + e["description"][:600])
        for x in e.get("excerpts") or []:
            lines.append("  source: " + x.replace("\n", " "))
        if e.get("neighbours"):
            lines.append("  related: " + "; ".join(e["neighbours"]))
        return "\n".join(lines)

    return block("Entity A", a) + "\n\n" + block("Entity B", b) + "\n\nAre A and B the same thing?"


def _record(db: Database, p: ReviewPair, verdict: dict, llm: LLM) -> None:
    db.query("judge_record", a=p.a_id, b=p.b_id, verdict=json.dumps(verdict, sort_keys=True), model=llm.model,
             prompt_version=PROMPT_VERSION)


def _cannot_link(db: Database, p: ReviewPair) -> bool:
    """Would the rules of ``score`` forbid merging this pair, whatever the judge says?"""
    rows = {r["e"]["id"]: r["e"] for r in db.query("cluster_members", pieces=[[p.a_id, p.b_id]])}
    if len(rows) < 2:
        return True
    related = [r["predicates"] for r in db.query("cluster_relations", ids=[p.a_id, p.b_id])]
    blocked = db.query("cluster_not_same_as", ids=[p.a_id, p.b_id])
    s = compare(Side.from_row(rows[p.a_id]), Side.from_row(rows[p.b_id]), not_same_as=bool(blocked),
                predicates_between=related[0] if related else ())
    return s.cannot_link is not None
