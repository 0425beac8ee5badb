"""One way to build the OpenAI client, for every OpenAI-compatible endpoint kgres talks to (the LLM
stages and the embeddings endpoint): the key is read from an environment variable, never from a file."""

from __future__ import annotations

import os
from typing import Any


def openai_client(base_url: str | None, api_key_env: str, timeout_s: float, max_retries: int) -> Any:
    """An ``openai.OpenAI`` client for ``base_url`` with the key from ``$api_key_env`` (servers that
    need none get a placeholder)."""
    import openai

    return openai.OpenAI(base_url=base_url, api_key=os.environ.get(api_key_env) or "not-needed",
                         timeout=timeout_s, max_retries=max_retries)
