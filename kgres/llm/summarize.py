"""``kgres summarize``: one paragraph for an entity whose merged descriptions are too long.

An entity whose mentions' distinct descriptions together exceed ``budget_tokens`` (about four
characters a token; 4,000 tokens by default) gets ``Entity.summary`` written by the LLM; the
mentions keep their own descriptions. ``summary_key`` hashes the descriptions summarised, so an
entity is summarised again only when its descriptions change (a merge, a split).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable

from pydantic import BaseModel

from kgres.db import Database
from kgres.llm.client import LLM, Usage, ask_each
from kgres.progress import Progress, as_progress

PROMPT_VERSION = "summarize-v1"
SYSTEM = ("You merge descriptions of one entity, written separately from different passages, into one "
          "factual paragraph. Keep every distinct fact, drop repetition, add nothing. Reply with one JSON "
          "object: {\"summary\": \"...\"}.")
CHARS_PER_TOKEN = 4


class Summary(BaseModel):
    summary: str


class SummarizeStats(BaseModel):
    entities: int
    summarized: int
    failed: int
    stopped_by_budget: bool
    usage: Usage


def summarize(db: Database, llm: LLM, budget_tokens: int = 4000, page_size: int = 100,
              on_step: Progress | Callable[[str], None] = Progress()) -> SummarizeStats:
    """Summarise every entity over the budget whose descriptions changed since its last summary.
    ``on_step`` is told of one stage, ``ask``, counting the entities answered as they come back."""
    progress = as_progress(on_step)
    progress.stage("ask")
    progress.expect(None, "entities")
    seen = done = failed = 0
    stopped, after = False, ""
    while not stopped and (page := db.read("llm_summarize_page", after=after, limit=page_size,
                                            chars=budget_tokens * CHARS_PER_TOKEN)):
        after = page[-1]["id"]
        todo = [e for e in page if e["summary_key"] != _key(e["descriptions"])]
        seen += len(page)
        batch = ask_each(llm, todo, lambda e: llm.ask(PROMPT_VERSION, SYSTEM, _prompt(e), Summary),
                         on_done=progress.advance)
        stopped, failed = batch.stopped_by_budget, failed + len(batch.failed)
        rows = [{"id": todo[i]["id"], "summary": a.summary, "key": _key(todo[i]["descriptions"])}
                for i, a in batch.answered]
        if rows:
            db.write("llm_summarize_write", rows=rows, model=llm.model, prompt_version=PROMPT_VERSION)
            done += len(rows)
    progress.end()
    return SummarizeStats(entities=seen, summarized=done, failed=failed, stopped_by_budget=stopped, usage=llm.usage)


def _key(descriptions: list[str]) -> str:
    return hashlib.sha1(json.dumps(descriptions).encode("utf-8")).hexdigest()[:16]


def _prompt(e: dict) -> str:
    return f"Entity: {e['name']} (type: {e['type'] or 'unknown'})\nDescriptions:\n" + "\n".join(
        f"- {d}" for d in e["descriptions"])
