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
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from kgres.curate.review import ReviewPair, decide, review
from kgres.curate.split import split
from kgres.db import Database
from kgres.errors import KgresError
from kgres.llm.client import LLM, Usage, ask_each
from kgres.progress import Progress, as_progress
from kgres.resolve.merge import finish_decisions
from kgres.resolve.normalize import name_keys
from kgres.resolve.pairs import cannot_link
from kgres.resolve.pipeline import STRATEGIES
from kgres.resolve.score import load_ambiguity

PROMPT_VERSION = "judge-v2"  # v2: each record carries its entity id
SYSTEM = (
    "You resolve entities in a knowledge graph extracted from text. Given two entity records, decide "
    "whether they denote the same real-world thing. Use the names, types, descriptions, source excerpts "
    "and neighbours. People who share a surname, products with different numbers, and places that are "
    "near each other are different things. Answer 'unsure' when the records do not settle it. Reply with "
    "one JSON object: {\"decision\": \"same\"|\"different\"|\"unsure\", \"confidence\": 0..1, "
    "\"evidence\": [short reasons quoting the records], \"canonical_name\": the best name if same}.")


class JudgeVerdict(BaseModel):
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


def judge(db: Database, llm: LLM, limit: int = 100, min_confidence: float = 0.8,
          on_step: Progress | Callable[[str], None] = Progress()) -> JudgeStats:
    """Judge up to ``limit`` review pairs (see module docstring). ``on_step`` is told of two stages,
    ``ask`` (the pairs answered, as they come back) and ``decide`` (the pairs recorded)."""
    progress = as_progress(on_step)
    progress.stage("ask")
    pairs = review(db, limit)
    progress.expect(len(pairs), "pairs")
    contexts = {i: _context(db, i) for p in pairs for i in (p.a_id, p.b_id)}
    batch = ask_each(llm, pairs, lambda p: llm.ask(PROMPT_VERSION, SYSTEM,
                                                    _prompt(contexts[p.a_id], contexts[p.b_id]), JudgeVerdict),
                     on_done=progress.advance)
    progress.stage("decide")
    progress.expect(len(pairs), "pairs")
    answers: list[JudgeVerdict | str | None] = [None] * len(pairs)  # None: not asked (budget spent)
    for i, v in batch.answered:
        answers[i] = v
    for i, err in batch.failed:
        answers[i] = err
    merged = rejected = left = blocked = failed = 0
    gone: set[str] = set()  # entities absorbed by an earlier merge in this loop
    for p, v in zip(pairs, answers):
        progress.advance(1)
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
        elif cannot_link(db, p.a_id, p.b_id):
            blocked += 1
        else:
            d = decide(db, "accept", p.a_id, p.b_id, reason=reason, decided_by=who, method="llm",
                       confidence=v.confidence)
            gone.add(d.b)
            merged += 1
    progress.end()
    return JudgeStats(pairs=len(pairs), merged=merged, rejected=rejected, left_in_review=left,
                      blocked_by_rules=blocked, failed=failed, stopped_by_budget=batch.stopped_by_budget,
                      usage=llm.usage)


def _context(db: Database, entity_id: str) -> dict:
    rows = db.read("llm_judge_context", id=entity_id, chunks=3, chars=400, neighbours=10)
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
    db.query("llm_judge_record", a=p.a_id, b=p.b_id, verdict=json.dumps(verdict, sort_keys=True), model=llm.model,
             prompt_version=PROMPT_VERSION)


MENTION_PROMPT_VERSION = "judge-mention-v1"
MENTION_SYSTEM = (
    "One mention in a text names an entity by a short form (a surname, a first name, an initial, an "
    "acronym) that several entities of a knowledge graph could carry. Given the mention, the passage it "
    "comes from and the candidate entities, decide which candidate the mention refers to. Answer 0 when "
    "the passage does not settle it. Reply with one JSON object: {\"candidate\": number, "
    "\"confidence\": 0..1, \"evidence\": [short reasons quoting the passage]}.")


class MentionVerdict(BaseModel):
    candidate: int = Field(ge=0)
    confidence: float = Field(ge=0, le=1)
    evidence: list[str] = []


class MentionJudgeStats(BaseModel):
    mentions: int
    moved: int
    kept: int
    failed: int
    stopped_by_budget: bool
    usage: Usage


def judge_mentions(db: Database, llm: LLM, limit: int = 100, min_confidence: float = 0.8,
                   max_candidates: int = 5, on_step: Progress | Callable[[str], None] = Progress()
                   ) -> MentionJudgeStats:
    """Check, one mention at a time, the merged mentions whose name is an ambiguous short form.

    Each such mention ("Holmes" inside Sherlock Holmes, when the graph also holds Mycroft Holmes) is
    shown to the model with its passage and the entities its name could stand for. When the model
    names another candidate with confidence >= ``min_confidence``, the mention alone moves there:
    split off its entity (``NOT_SAME_AS`` recorded) and merged into the chosen one, both recorded
    as the model's decisions and both undoable. Every verdict is stored on the mention
    (``relink_verdict``), so a mention is asked once, and a move is recorded with it before it
    starts (``relink_pending``): one a killed judge left half done is finished first
    (:func:`finish_moves`). ``on_step`` is told of two stages, ``ask`` (the mentions answered, as
    they come back) and ``decide`` (the mentions recorded and moved).
    """
    progress = as_progress(on_step)
    progress.stage("ask")
    finish_moves(db)
    ambiguity = load_ambiguity(db)
    todo: list[tuple[dict, list[str]]] = []
    after = ""
    while len(todo) < limit and (page := db.read("llm_judge_mention_page", after=after, limit=2000, chars=600)):
        after = page[-1]["id"]
        for m in page:
            k = name_keys(m["name"] or "", m["type"])
            groups = ambiguity.holders(k.tokens, k.norm_type)
            if groups:
                todo.append((m, [g[0] for g in groups[:max_candidates]]))
        todo = todo[:limit]
    cores = sorted({c for _, cs in todo for c in cs})
    entity_of = {r["core"]: r["id"] for r in db.read("llm_judge_mention_candidates", cores=cores)} if cores else {}
    items = []
    for m, cs in todo:
        cands = [entity_of[c] for c in cs if c in entity_of]
        if m["entity_id"] not in cands:
            cands = [m["entity_id"], *cands][:max_candidates + 1]
        items.append((m, cands))
    progress.expect(len(items), "mentions")
    contexts = {i: _context(db, i) for _, cands in items for i in cands}
    batch = ask_each(llm, items, lambda it: llm.ask(MENTION_PROMPT_VERSION, MENTION_SYSTEM,
                                                     _mention_prompt(it[0], [contexts[c] for c in it[1]]),
                                                     MentionVerdict), on_done=progress.advance)
    progress.stage("decide")
    progress.expect(len(items), "mentions")
    answered = dict(batch.answered)
    moved = kept = 0
    for i, (m, cands) in enumerate(items):
        progress.advance(1)
        v = answered.get(i)
        if v is None:
            continue
        target = cands[v.candidate - 1] if 1 <= v.candidate <= len(cands) else None
        current = db.read("llm_judge_mention_entity", id=m["id"])
        if target is None or v.confidence < min_confidence or not current or current[0]["id"] == target:
            target = None
        db.query("llm_judge_mention_record", id=m["id"], verdict=json.dumps(v.model_dump(), sort_keys=True),
                 model=llm.model, prompt_version=MENTION_PROMPT_VERSION, target=target,
                 **{"from": current[0]["id"] if current else None})
        if target is not None and _move(db, m["id"], current[0]["id"], current[0]["id"], target, v, llm.model):
            moved += 1
        else:
            kept += 1
    progress.end()
    return MentionJudgeStats(mentions=len(items), moved=moved, kept=kept, failed=len(batch.failed),
                             stopped_by_budget=batch.stopped_by_budget, usage=llm.usage)


def _move(db: Database, mention_id: str, current: str, origin: str, target: str, v: MentionVerdict,
          model: str) -> bool:
    """Move the mention alone from ``origin`` (the entity it was in when judged) into ``target``:
    split it off, then merge it there; it is now in ``current``. Picks up where a killed judge
    stopped (split done: the mention is in its restored entity). Returns False when a rule forbids
    the merge. Either way the recorded move is then marked done."""
    reason = json.dumps({"model": model, "prompt": MENTION_PROMPT_VERSION, "confidence": v.confidence,
                         "evidence": v.evidence, "mention": mention_id}, sort_keys=True)
    who = f"llm:{model}"
    moved = current == target
    if not moved:
        restored = split(db, mention_id, reason=reason, decided_by=who).restored if current == origin else current
        # a cannot-link keeps the mention split off, on its own entity, apart from the old one
        if not cannot_link(db, restored, target):
            try:
                decide(db, "accept", restored, target, reason=reason, decided_by=who, method="llm",
                       confidence=v.confidence)
                moved = True
            except KgresError:
                pass
    db.query("llm_judge_mention_moved", id=mention_id)
    return moved


def finish_moves(db: Database) -> int:
    """Finish the mention moves a killed ``judge --mentions`` recorded and did not complete (split
    done and merge not, or neither); returns how many."""
    finish_decisions(db, list(STRATEGIES))  # a merge killed midway is finished as decided first
    rows = db.read("llm_judge_mention_pending")
    for r in rows:
        if r["current"] not in (r["from"], r["target"]) and r["mentions"] > 1:
            # not where the split left it (alone): a later run moved it on, and the move is not ours to make
            db.query("llm_judge_mention_moved", id=r["id"])
            continue
        _move(db, r["id"], r["current"], r["from"], r["target"], MentionVerdict.model_validate_json(r["verdict"]),
              r["model"])
    return len(rows)


def _mention_prompt(m: dict, candidates: list[dict]) -> str:
    lines = [f"Mention: {m['name']} (type: {m['type'] or 'unknown'})"]
    lines += [f"Passage: {x}" for x in m["excerpts"]]
    for n, c in enumerate(candidates, 1):
        lines.append(f"Candidate {n}: {c.get('name')} (type: {c.get('type') or 'unknown'})")
        if c.get("aliases"):
            lines.append("  also called: " + "; ".join(c["aliases"][:10]))
        if c.get("description"):
            lines.append("  description: " + c["description"][:400])
        if c.get("neighbours"):
            lines.append("  related: " + "; ".join(c["neighbours"]))
    return "\n".join(lines)
