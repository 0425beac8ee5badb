"""``kgres reflect``: an LLM scores each triple's plausibility; implausible ones are filtered.

Deg-Rag's triple reflection: each active raw triple (or every one, with ``all``) gets a 0..1 score
and a short analysis, judged on semantic accuracy, relevance, specificity, logical coherence and
entity-type compatibility. Below ``threshold`` (0.2) the triple is marked ``filtered`` (never
deleted): ``RELATED`` edges, GDS projections and retrieval use active triples only. The score lives
on the mention-level ``RELATES`` edge, so it survives merges, splits and rollbacks.
"""

from __future__ import annotations

from collections.abc import Callable

from pydantic import BaseModel, Field

from kgres.db import Database
from kgres.llm.client import LLM, Usage, ask_each
from kgres.progress import Progress, as_progress
from kgres.resolve.merge import refresh_with_context

PROMPT_VERSION = "reflect-v1"
SYSTEM = (
    "You check triples extracted from text by another model. Score how likely the triple is a correct, "
    "useful statement of the source: semantic accuracy (does the source say this?), relevance, "
    "specificity (not vague or trivial), logical coherence, and whether the relation fits the two "
    "entity types. Reply with one JSON object: {\"score\": 0..1, \"analysis\": one short sentence}.")


class Reflection(BaseModel):
    score: float = Field(ge=0, le=1)
    analysis: str = ""


class ReflectStats(BaseModel):
    triples: int
    scored: int
    filtered: int
    failed: int
    stopped_by_budget: bool
    usage: Usage


def reflect(db: Database, llm: LLM, threshold: float = 0.2, all_triples: bool = False,
            page_size: int = 200, on_step: Progress | Callable[[str], None] = Progress()) -> ReflectStats:
    """Score unscored active triples page by page; each page is written in one transaction.
    ``on_step`` is told of one stage, ``ask``, counting the triples answered as they come back (how
    many there are is known only at the end)."""
    progress = as_progress(on_step)
    progress.stage("ask")
    progress.expect(None, "triples")
    seen = scored = filtered = failed = 0
    stopped, after = False, ""
    while not stopped and (page := db.read("llm_reflect_page", after=after, limit=page_size, all=all_triples,
                                            chars=600)):
        after = page[-1]["id"]
        seen += len(page)
        batch = ask_each(llm, page, lambda t: llm.ask(PROMPT_VERSION, SYSTEM, _prompt(t), Reflection),
                         on_done=progress.advance)
        stopped, failed = batch.stopped_by_budget, failed + len(batch.failed)  # failed: unscored, retried later
        rows = [{"id": page[i]["id"], "score": a.score, "analysis": a.analysis} for i, a in batch.answered]
        if rows:
            out = db.query("llm_reflect_write", rows=rows, threshold=threshold, model=llm.model,
                           prompt_version=PROMPT_VERSION)[0]
            scored += len(rows)
            filtered += out["filtered"]
            if out["filtered"]:
                refresh_with_context(db, sorted(set(out["affected"])))  # their neighbourhoods lost the triples
    progress.end()
    return ReflectStats(triples=seen, scored=scored, filtered=filtered, failed=failed, stopped_by_budget=stopped,
                        usage=llm.usage)


def _prompt(t: dict) -> str:
    return (f"Subject: {t['subject']} (type: {t['subject_type'] or 'unknown'}) {t['subject_description'][:300]}\n"
              f"Relation: {t['predicate']} {t['description'][:300]}\n"
              f"Object: {t['object']} (type: {t['object_type'] or 'unknown'}) {t['object_description'][:300]}\n"
              f"Source excerpt: {t['excerpt']}")
