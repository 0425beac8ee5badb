"""Answers from the retrieved context: the configured LLM answers the question and cites the chunk ids
it used."""

from __future__ import annotations

from pydantic import BaseModel

from kgres.errors import ConfigError
from kgres.retrieve.context import Context

PROMPT_VERSION = "answer-v1"


class Answer(BaseModel):
    answer: str
    citations: list[str] = []



def answer(llm, ctx: Context) -> Answer:
    """The LLM's answer to ``ctx.query`` from ``ctx``.

    Raises:
        ConfigError: no LLM is configured (``llm`` is None).
        LLMError, BudgetExhausted: as :meth:`kgres.llm.LLM.ask`.
    """
    if llm is None:
        raise ConfigError("no LLM configured: set KGRES_LLM_MODEL (or [llm] model) to generate answers")
    return llm.ask(PROMPT_VERSION, ANSWER_SYSTEM, f"Question: {ctx.query}\n\nContext:\n{ctx.text()}", Answer)


ANSWER_SYSTEM = (
    "Answer the question from the context only (entities, relations, sources). Cite the source ids you "
    "used, as written in square brackets. If the context does not answer it, say so. Reply with one JSON "
    "object: {\"answer\": text, \"citations\": [source ids]}.")
