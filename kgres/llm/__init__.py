"""The LLM stages over any OpenAI-compatible endpoint: :mod:`~kgres.llm.client` (bounded, retried,
budgeted, cached in the database), :mod:`~kgres.llm.judge` (review-band pairs and ambiguous
mentions), :mod:`~kgres.llm.reflect` (triple plausibility), :mod:`~kgres.llm.summarize` (long
merged descriptions)."""

from kgres.llm.client import (LLM, Batch, BudgetExhausted, LLMError, LLMSettings, Usage, ask_each, client,
                              configured_model, parse)

__all__ = ["LLM", "Batch", "BudgetExhausted", "LLMError", "LLMSettings", "Usage", "ask_each", "client",
           "configured_model", "parse"]
