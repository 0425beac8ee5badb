"""Graph retrieval served from the database: :mod:`~kgres.retrieve.retriever` (modes: local, ppr,
community), :mod:`~kgres.retrieve.context` (what a query returns, cut to a token budget),
:mod:`~kgres.retrieve.communities` (Leiden communities, summarised and embedded),
:mod:`~kgres.retrieve.answer` (an LLM answer citing sources), :mod:`~kgres.retrieve.serve` (HTTP)."""

from kgres.retrieve.answer import Answer
from kgres.retrieve.context import Context
from kgres.retrieve.retriever import MODES, RetrieveConfig, RetrieveMode, Retriever

__all__ = ["MODES", "Answer", "Context", "RetrieveConfig", "RetrieveMode", "Retriever"]
