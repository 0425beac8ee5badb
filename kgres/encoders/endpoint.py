"""An OpenAI-compatible ``/embeddings`` endpoint as an encoder (OpenAI, Azure, vLLM, Ollama...)."""

from __future__ import annotations

import math

from kgres.encoders import Encoder, EncoderConfig
from kgres.errors import KgresError
from kgres.openai_compat import openai_client


def endpoint_encoder(cfg: EncoderConfig) -> tuple[Encoder, int]:
    """Batch encoder over the endpoint's ``/embeddings`` (vectors normalised here) and its dimension,
    found by encoding one probe text."""
    import openai

    client = openai_client(cfg.endpoint, cfg.api_key_env, cfg.timeout_s, max_retries=2)

    def encode(texts: list[str]) -> list[list[float]]:
        try:
            response = client.embeddings.create(model=cfg.model, input=texts)
        except openai.OpenAIError as e:
            raise KgresError(f"embeddings endpoint {cfg.endpoint} failed: {type(e).__name__}: {e}") from e
        data = sorted(response.data, key=lambda d: d.index)
        if len(data) != len(texts):
            raise KgresError(f"embeddings endpoint {cfg.endpoint} returned {len(data)} vectors for {len(texts)} texts")
        out = []
        for d in data:
            norm = math.sqrt(sum(x * x for x in d.embedding)) or 1.0
            out.append([x / norm for x in d.embedding])
        return out

    probe = encode(["dimension probe"])
    return encode, len(probe[0])

