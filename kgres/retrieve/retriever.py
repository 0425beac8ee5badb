"""``retrieve``: graph retrieval served from the database, on the resolved entity graph.

Modes (each a set of ``cypher/retrieve_*.cypher`` files a user can run from plain Cypher):

- ``local`` (LightRAG / GraphRAG-local): the query's nearest entities by text embedding (vector
  index), expanded ``hops`` hops over relations, ranked (seeds first, then entities that more seeds
  reach and that relate more strongly to them).
- ``ppr`` (HippoRAG): personalized PageRank from those seed entities (GDS ``sourceNodes``) over a
  projection of the resolved graph; chunks ranked by the summed rank of the entities they mention.
- ``community`` (GraphRAG-global): GDS Leiden communities of the resolved graph, summarised (by the
  LLM when one is configured, else extractively) and embedded; the communities closest to the
  query give their summaries and best-connected members.

Every mode returns one :class:`Context`: entities with their alias trail (the names their mentions
carry and the decisions that joined them), relations with their source triples' descriptions,
source chunks, and (community mode) community summaries, cut to a token budget (characters / 4).
Triples filtered by reflection never appear: ``RELATED`` and the projections hold active triples
only, and descriptions are read from active triples.

``layer="mentions"`` asks the same question of the unresolved mention layer as an exact-string
system would (nodes are distinct mention names): the baseline resolution is measured against.

The context (trails, relations, chunks) comes from ``retrieve_context.cypher``, or from the kgres
plugin's ``kgres.retrieve.context`` procedure, which returns the same rows faster, when the server has it.

Projections and communities are rebuilt when the graph changes (``retrieve_stamp``: counts, runs,
filtered triples), checked at most every ``stamp_ttl_s`` seconds.
"""

from __future__ import annotations

import hashlib
import threading
import time
from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database, cypher
from kgres.db.gds import drop
from kgres.encoders import EncoderConfig, load_encoder
from kgres.encoders.query import load_query_encoder
from kgres.errors import ConfigError, DatabaseError, DatabaseUnavailable
from kgres.retrieve import communities
from kgres.retrieve.answer import Answer, answer
from kgres.retrieve.context import Context, budget
from kgres.schema import Layer

RetrieveMode = Literal["local", "ppr", "community"]
MODES: tuple[str, ...] = RetrieveMode.__args__  # type: ignore[attr-defined]
GRAPH_PREFIX = "kgres_retrieval_"


class RetrieveConfig(BaseModel):
    """Retrieval settings (``[retrieve]`` in the config file); a request may override them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: RetrieveMode = "local"
    k: int = Field(5, ge=1, le=50)                      # seed entities from the vector index
    hops: int = Field(1, ge=1, le=3)                    # local expansion (the mention layer stops at 2)
    max_entities: int = Field(30, ge=1, le=500)
    relations: int = Field(40, ge=0, le=1000)
    chunks: int = Field(8, ge=0, le=200)
    chunk_chars: int = Field(600, ge=50, le=20_000)
    budget_tokens: int = Field(2000, ge=50, le=200_000)
    damping: float = Field(0.5, gt=0, lt=1)             # HippoRAG's restart-heavy PPR
    communities: int = Field(3, ge=1, le=50)
    min_community: int = Field(3, ge=2, le=1000)
    leiden_seed: int = 42
    stamp_ttl_s: float = Field(5.0, ge=0, le=3600)
    # torch intra-op threads of a process that serves queries (0: leave torch's default). A question
    # is too small to split across cores; two threads per query on two cores made 4 clients queue.
    encoder_threads: int = Field(1, ge=0, le=256)
    # trace the local query encoder into TorchScript (checked against the model; see embed)
    encoder_trace: bool = True
    # the traced encoder's linear layers in bfloat16: "auto" where the CPU multiplies it natively
    # (a third less time per question with AMX; vectors within cosine 0.99997), "on", "off"
    encoder_bf16: Literal["auto", "on", "off"] = "auto"
    # compute the context with the kgres plugin's kgres.retrieve.context when the server has it (the
    # same result as retrieve_context.cypher, ~10% less time per local question); false: the Cypher file
    context_procedure: bool = True


class Retriever:
    """Retrieval over one database: holds the query encoder and the projection state, so a server
    keeps one and answers many queries. Thread-safe."""

    def __init__(self, db: Database, embed: EncoderConfig = EncoderConfig(), cfg: RetrieveConfig = RetrieveConfig(),
                 encoder: Callable[[list[str]], list[list[float]]] | None = None, llm: Any = None) -> None:
        self.db, self.cfg, self.llm = db, cfg, llm
        self._embed_cfg = embed
        self._encoder = encoder
        self._encode_one: Callable[[str], list[float]] | None = (lambda q: encoder([q])[0]) if encoder else None
        self._lock = threading.Lock()  # projection and communities
        self._load_lock = threading.Lock()  # encoders (loaded inside communities(), which holds _lock)
        self._stamp: tuple[float, str] | None = None
        self._has_procedure: bool | None = None
        self._projected: str | None = None  # the projection this Retriever last made or found

    def encode(self, query: str) -> list[float]:
        return self._query_encoder()(query)

    def _query_encoder(self) -> Callable[[str], list[float]]:
        if self._encode_one is None:
            with self._load_lock:
                if self._encode_one is None:
                    self._encode_one = load_query_encoder(
                        self._embed_cfg, threads=self.cfg.encoder_threads, trace=self.cfg.encoder_trace,
                        bf16=self.cfg.encoder_bf16)
        return self._encode_one

    def _load(self) -> Callable[[list[str]], list[list[float]]]:
        if self._encoder is None:
            with self._load_lock:
                if self._encoder is None:
                    self._encoder, _ = load_encoder(self._embed_cfg)
        return self._encoder

    def retrieve(self, query: str, layer: Layer = "entities", **overrides: Any) -> Context:
        """The ranked, budgeted context for ``query`` (see module docstring).

        Raises:
            ConfigError: an invalid override, or the mention layer asked for a mode other than local.
        """
        try:
            cfg = self.cfg.model_copy(update=overrides) if overrides else self.cfg
            cfg = RetrieveConfig.model_validate(cfg.model_dump())
        except ValueError as e:
            raise ConfigError(f"invalid retrieval settings: {e}") from e
        if not query.strip():
            raise ConfigError("the query is empty")
        if layer == "mentions" and cfg.mode != "local":
            raise ConfigError("the mention layer is served in local mode only (it has no projection)")
        encode = self._query_encoder()  # loading the model once is not part of a query's latency
        t = time.perf_counter()
        vector = encode(query)
        communities: list[dict] = []
        if layer == "mentions":
            raw = self._mentions(self.db.read("retrieve_seeds", _plain=True, vector=vector, k=cfg.k), cfg)
        else:
            if cfg.mode == "local":
                raw = self._local(vector, cfg)
            elif cfg.mode == "ppr":
                raw = self._context(self._ppr(self.db.read("retrieve_seeds", _plain=True, vector=vector, k=cfg.k), cfg), cfg)
            else:
                communities, ranked = self._community(vector, cfg)
                raw = self._context(ranked, cfg)
        ctx = budget(Context(query=query, mode=cfg.mode, layer=layer, communities=communities, **raw),
                      cfg.budget_tokens)
        ctx.ms = round(1000 * (time.perf_counter() - t), 2)
        return ctx

    def answer(self, ctx: Context) -> Answer:
        """An answer from the configured LLM that cites the chunk ids it used (:func:`kgres.retrieve.answer.answer`)."""
        return answer(self.llm, ctx)

    # -- modes -------------------------------------------------------------------------------

    def _local(self, vector: list[float], cfg: RetrieveConfig) -> dict[str, Any]:
        """Seeds, expansion and their context in one round trip (retrieve_local, then retrieve_context)."""
        statement = cypher.chain("retrieve_local", self._context_file(cfg), ("ids", "weights"))
        row = self.db.read("retrieve_local+context", statement, _plain=True, vector=vector, k=cfg.k, hops=cfg.hops,
                           limit=max(0, cfg.max_entities - cfg.k), **_context_params(cfg))[0]
        return _sorted(row)

    def _ppr(self, seeds: list[dict], cfg: RetrieveConfig) -> list[tuple[str, float]]:
        if not seeds:
            return []
        params = dict(seeds=[s["id"] for s in seeds], limit=cfg.max_entities, damping=cfg.damping)
        graph = self.projection()
        try:
            rows = self.db.read("retrieve_ppr", _plain=True, graph=graph, **params)
        except DatabaseError as e:  # another process dropped it (it projected a newer graph): once more
            if isinstance(e, DatabaseUnavailable) or graph not in str(e):
                raise
            self._projected = None
            rows = self.db.read("retrieve_ppr", _plain=True, graph=self.projection(), **params)
        return [(r["id"], r["score"]) for r in rows]

    def _community(self, vector: list[float], cfg: RetrieveConfig) -> tuple[list[dict], list[tuple[str, float]]]:
        self.communities(cfg)
        rows = self.db.read("retrieve_community", _plain=True, vector=vector, k=cfg.communities,
                             members=max(1, cfg.max_entities // cfg.communities))
        ranked: dict[str, float] = {}
        for r in rows:
            for i, m in enumerate(r["members"]):
                ranked.setdefault(m, max(0.0, r["cosine"]) / (i + 1))
        communities = [{k: r[k] for k in ("id", "title", "summary", "summarized_by", "size", "cosine")} for r in rows]
        return communities, list(ranked.items())

    def _context(self, ranked: list[tuple[str, float]], cfg: RetrieveConfig) -> dict[str, Any]:
        if not ranked:
            return {"entities": [], "relations": [], "chunks": []}
        row = self.db.read(self._context_file(cfg), _plain=True, ids=[i for i, _ in ranked],
                           weights=[float(w) for _, w in ranked], **_context_params(cfg))[0]
        return _sorted(row)

    def _context_file(self, cfg: RetrieveConfig) -> str:
        """retrieve_context_procedure where allowed and the server's plugin has the procedure (checked
        once per Retriever), else the plain Cypher file."""
        if not cfg.context_procedure:
            return "retrieve_context"
        if self._has_procedure is None:
            self._has_procedure = bool(self.db.read("retrieve_has_procedure", _plain=True, procedure="kgres.retrieve.context"))
        return "retrieve_context_procedure" if self._has_procedure else "retrieve_context"

    def _mentions(self, seeds: list[dict], cfg: RetrieveConfig) -> dict[str, Any]:
        names = [r["n"] for r in self.db.read("retrieve_names", _plain=True, ids=[s["id"] for s in seeds])]
        if not names:
            return {"entities": [], "relations": [], "chunks": []}
        row = self.db.read("retrieve_mentions", _plain=True, names=names, hops=min(cfg.hops, 2), limit=cfg.max_entities,
                            relations=cfg.relations, chunks=cfg.chunks, chars=cfg.chunk_chars)[0]
        return {"entities": row["entities"], "relations": row["relations"], "chunks": row["chunks"]}

    # -- derived state -------------------------------------------------------------------------

    def stamp(self) -> str:
        """A fingerprint of what projections and communities depend on (cached ``stamp_ttl_s``)."""
        now = time.monotonic()
        cached = self._stamp
        if cached and now - cached[0] < self.cfg.stamp_ttl_s:
            return cached[1]
        row = self.db.read("retrieve_stamp")[0]
        value = hashlib.sha1(repr(sorted(row.items())).encode()).hexdigest()[:12]
        self._stamp = (now, value)
        return value

    def projection(self) -> str:
        """The name of the current retrieval projection, projecting it (and dropping stale ones) if needed.
        The catalog is listed once per stamp, not on every question (2.3 ms under the lock at 100k)."""
        name = GRAPH_PREFIX + self.stamp()
        if name == self._projected:
            return name
        with self._lock:
            existing = {r["name"] for r in self.db.read("retrieve_graphs", prefix=GRAPH_PREFIX)}
            if name not in existing:
                for old in existing:
                    drop(self.db, old)
                self.db.query("retrieve_project", graph=name)
            self._projected = name
        return name

    def communities(self, cfg: RetrieveConfig | None = None, force: bool = False) -> dict[str, Any]:
        """Build the Leiden communities, their summaries and embeddings, unless current ones exist
        (:mod:`kgres.retrieve.communities`)."""
        cfg = cfg or self.cfg
        stamp = self.stamp()
        now = communities.current(self.db)
        if now["stamp"] == stamp and not force:
            return {"built": False, "communities": now["communities"]}
        graph = self.projection()
        with self._lock:
            return communities.build(self.db, graph, stamp, cfg.leiden_seed, cfg.min_community, self.llm,
                                     self._encode_many)

    def _encode_many(self, texts: list[str]) -> list[list[float]]:
        return self._load()(texts)


def _context_params(cfg: RetrieveConfig) -> dict[str, Any]:
    return {"relations": cfg.relations, "chunks": cfg.chunks, "chars": cfg.chunk_chars}


def _sorted(row: dict[str, Any]) -> dict[str, Any]:
    """retrieve_context's row, entities in rank order."""
    return {"entities": sorted(row["entities"], key=lambda e: e["rank"]), "relations": row["relations"],
            "chunks": row["chunks"]}


