"""``block``: candidate pairs, bounded per entity, computed in the database (never all pairs).

Strategies (each a ``cypher/block_<name>.cypher`` file), combinable:

- ``exact``: same normalised core key, across types ("Baker Street" as GEO and as ORGANIZATION).
- ``acronym``: an acronym key equal to another entity's core key ("LLMs" / "Large Language Models").
- ``lexical``: the best full-text matches on name and aliases (shared rare words: "Holmes"). The
  index is rebuilt first: BM25 counts deleted documents until Lucene merges them, which made the
  pairs differ from run to run.
- ``semantic``: nearest neighbours by text embedding (vector index), cosine >= ``min_cosine``.
- ``structural``: entities sharing neighbours (GDS nodeSimilarity), similarity >= ``structural_cutoff``.
- ``attributes``: entities sharing rare attribute values (dates, postcodes, emails, phone numbers:
  values that at most ``max_value_share`` entities carry), the ``k`` that share the most per entity.
  A record whose name is misspelt is found by what else it shares.
- ``kmeans``: Deg-Rag's semantic blocks: GDS k-means over text embeddings with
  k = sqrt(|E| / 10), then the ``k`` closest members of the same block. Each block's embeddings are
  read once and compared in one matrix product (numpy); in Cypher every entity re-read every
  member's embedding (~10^8 property reads, an hour, at 100k mentions).

Each writes at most ``k`` ``CANDIDATE`` edges per entity and strategy, one edge per pair and run;
``methods`` on the edge lists every strategy that proposed the pair. Semantic and k-means blocking
need the ``embed`` stage to have run (entities without an embedding are skipped).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database
from kgres.db.gds import projection

BlockStrategy = Literal["exact", "acronym", "lexical", "semantic", "structural", "attributes", "kmeans"]
PER_ENTITY = ("exact", "acronym", "lexical", "semantic")  # one query per page of entities
KMEANS_ROWS = 1024  # rows of a block's similarity matrix held at once
HUB_DEGREE = 1000  # structural pairs walked from a focus skip neighbours with more neighbours than this


class BlockConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    strategies: tuple[BlockStrategy, ...] = ("exact", "acronym", "lexical", "semantic", "structural", "attributes")
    k: int = Field(20, ge=1, le=200)
    batch_size: int = Field(2000, ge=1, le=100_000)
    min_cosine: float = Field(0.8, ge=-1, le=1)
    structural_cutoff: float = Field(0.5, gt=0, le=1)
    kmeans_seed: int = 42
    max_value_share: int = Field(100, ge=2, le=100_000)  # attributes: a value more entities share blocks nothing


class BlockStats(BaseModel):
    run_id: str
    pairs_by_strategy: dict[str, int]
    pairs: int


def block(db: Database, run_id: str, cfg: BlockConfig = BlockConfig(),
          on_batch: Callable[[int], None] = lambda n: None, focus: list[str] | None = None,
          incremental: bool = False) -> BlockStats:
    """Write CANDIDATE edges for ``run_id``; idempotent (MERGE per pair and run).

    ``focus``: block only these entities (a later pass re-examines what the previous one merged).
    ``incremental`` (with ``focus``: new entities joining a resolved graph): work in proportion to
    the focus, not the graph: the full-text index is used as it is (not rebuilt), and structural
    pairs are walked from the focus (``resolve_block_structural_focus``) instead of computed over
    the whole graph.
    """
    walk = incremental and focus is not None
    if "lexical" in cfg.strategies and not walk:
        reindex_names(db)
    if "structural" in cfg.strategies and walk:
        for i in range(0, len(focus), cfg.batch_size):
            db.write("resolve_block_structural_focus", ids=focus[i:i + cfg.batch_size], k=cfg.k,
                     cutoff=cfg.structural_cutoff, max_degree=HUB_DEGREE, run_id=run_id)
    if ("structural" in cfg.strategies and not walk) or "kmeans" in cfg.strategies:
        _graph_wide(db, run_id, cfg if not walk else cfg.model_copy(update={"strategies": tuple(
            s for s in cfg.strategies if s != "structural")}), focus)
    if "kmeans" in cfg.strategies:
        _kmeans_pairs(db, run_id, cfg.k, focus)
    if "attributes" in cfg.strategies:
        _attribute_pairs(db, run_id, cfg.k, cfg.max_value_share, focus)
    pages = db.entity_ids(cfg.batch_size) if focus is None else (
        focus[i:i + cfg.batch_size] for i in range(0, len(focus), cfg.batch_size))
    for ids in pages:
        for strategy in cfg.strategies:
            if strategy in PER_ENTITY:
                db.write(f"resolve_block_{strategy}", ids=ids, k=cfg.k, run_id=run_id, min_cosine=cfg.min_cosine)
        on_batch(len(ids))
    by = {r["method"]: r["pairs"] for r in db.read("resolve_block_count", run_id=run_id)}
    total = db.read("resolve_block_total", run_id=run_id)[0]["pairs"]
    return BlockStats(run_id=run_id, pairs_by_strategy=by, pairs=total)


def reindex_names(db: Database, timeout_s: int = 600) -> None:
    """Rebuild the ``entity_name`` full-text index so lexical blocking is deterministic.

    BM25 statistics count replaced and deleted documents until Lucene merges their segments, at a
    time nobody controls; rebuilt from the store, the index scores the same entities the same way.
    """
    db.script("resolve_block_lexical_reindex", timeout_s=timeout_s)


def _graph_wide(db: Database, run_id: str, cfg: BlockConfig, focus: list[str] | None) -> None:
    """Structural pairs and k-means block assignment: one GDS projection for the whole graph."""
    with projection(db, "resolve_block_project", "block", with_embedding="kmeans" in cfg.strategies) as graph:
        if not graph.nodes:  # an empty graph: nothing to compare
            return
        if "structural" in cfg.strategies:
            db.write("resolve_block_structural", graph=graph.name, k=cfg.k, cutoff=cfg.structural_cutoff,
                     focus=focus, run_id=run_id)
        if "kmeans" in cfg.strategies:
            db.query("resolve_block_kmeans_assign", graph=graph.name, k=kmeans_k(graph.nodes), seed=cfg.kmeans_seed)


def _kmeans_pairs(db: Database, run_id: str, k: int, focus: list[str] | None) -> None:
    """Pair each entity (of ``focus``, if given) with the ``k`` members of its k-means block closest by
    text embedding cosine, ties by id (as ``ORDER BY cosine DESC, id``), and write the pairs."""
    wanted = set(focus) if focus is not None else None
    for block_row in db.read("resolve_block_kmeans_blocks", _plain=True):
        if block_row["size"] < 2:
            continue
        rows = db.read("resolve_block_kmeans_members", _plain=True, block=block_row["block"])
        ids = [r["id"] for r in rows]
        vectors = np.asarray([r["embedding"] for r in rows], dtype=np.float32)
        vectors /= np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)
        pairs: set[tuple[str, str]] = set()
        for start in range(0, len(ids), KMEANS_ROWS):
            sims = vectors[start:start + KMEANS_ROWS] @ vectors.T
            sims[np.arange(len(sims)), np.arange(start, start + len(sims))] = -np.inf  # not itself
            # a stable sort of -cosine keeps id order among equal cosines (members are in id order)
            for offset, best in enumerate(np.argsort(-sims, axis=1, kind="stable")[:, :k]):
                me = ids[start + offset]
                if wanted is None or me in wanted:
                    pairs.update((min(me, ids[j]), max(me, ids[j])) for j in best)
        _write_pairs(db, pairs, "kmeans", run_id)


def _write_pairs(db: Database, pairs: set[tuple[str, str]], method: str, run_id: str) -> None:
    ordered = sorted(pairs)
    for i in range(0, len(ordered), 5000):
        db.write("resolve_block_pairs", pairs=[list(p) for p in ordered[i:i + 5000]], method=method, run_id=run_id)


def _attribute_pairs(db: Database, run_id: str, k: int, max_share: int, focus: list[str] | None) -> None:
    """Pair each entity (of ``focus``, if given) with the ``k`` entities that share the most, and the
    rarest, attribute values with it (a date of birth, a postcode, an email, a phone number: each
    value scores log(N / entities carrying it)); values that more than ``max_share`` entities carry
    are skipped. Records with a misspelt name are found by what else they share."""
    from kgres.resolve.score.identifiers import attributes_of
    from kgres.resolve.score.sides import fold_value

    if focus is not None and not any(
            db.read("resolve_block_attributes_focus", ids=focus[i:i + 5000])[0]["carrying"]
            for i in range(0, len(focus), 5000)):
        return  # no entity of the focus has an attribute to share: no need to read the graph's
    ids: list[str] = []
    postings: dict[str, list[int]] = {}
    for row in db.stream("resolve_block_attributes"):
        i = len(ids)
        ids.append(row["id"])
        for key, value in attributes_of(row["attributes"]):
            if folded := fold_value(value):
                postings.setdefault(f"{key}={folded}", []).append(i)
    n = len(ids)
    if n < 2:
        return
    values_of: dict[int, list[tuple[float, list[int]]]] = {}
    for members in postings.values():
        if 2 <= len(members) <= max_share:
            weight = math.log(n / len(members))
            for i in members:
                values_of.setdefault(i, []).append((weight, members))
    wanted = set(focus) if focus is not None else None
    pairs: set[tuple[str, str]] = set()
    for i, shared in values_of.items():
        if wanted is not None and ids[i] not in wanted:
            continue
        scores: dict[int, float] = {}
        for weight, members in shared:
            for j in members:
                if j != i:
                    scores[j] = scores.get(j, 0.0) + weight
        for j in sorted(scores, key=lambda j: (-scores[j], j))[:k]:
            pairs.add((min(ids[i], ids[j]), max(ids[i], ids[j])))
    _write_pairs(db, pairs, "attributes", run_id)


def kmeans_k(entities: int) -> int:
    """Deg-Rag's number of semantic blocks: sqrt(|E| / 10), at least 1."""
    return max(1, round(math.sqrt(entities / 10)))
