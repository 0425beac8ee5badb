"""``block``: candidate pairs, bounded per entity, computed in the database (never all pairs).

Strategies (each a ``cypher/block_<name>.cypher`` file), combinable:

- ``exact``: same normalised core key, across types ("Baker Street" as GEO and as ORGANIZATION).
- ``acronym``: an acronym key equal to another entity's core key ("LLMs" / "Large Language Models").
- ``lexical``: the best full-text matches on name and aliases (shared rare words: "Holmes").

Each writes at most ``k`` ``CANDIDATE`` edges per entity and strategy, one edge per pair and run.
Semantic (vector), structural (GDS node similarity) and k-means blocking come with embeddings.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from kgres.db import Database

Strategy = Literal["exact", "acronym", "lexical"]


class BlockConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    strategies: tuple[Strategy, ...] = ("exact", "acronym", "lexical")
    k: int = Field(20, ge=1, le=200)
    batch_size: int = Field(2000, ge=1, le=100_000)


class BlockStats(BaseModel):
    run_id: str
    pairs_by_strategy: dict[str, int]
    pairs: int


def block(db: Database, run_id: str, cfg: BlockConfig = BlockConfig(),
          on_batch: Callable[[int], None] = lambda n: None, focus: list[str] | None = None) -> BlockStats:
    """Write CANDIDATE edges for ``run_id``; idempotent (MERGE per pair and run).

    ``focus``: block only these entities (a later pass re-examines what the previous one merged).
    """
    pages = id_pages(db, cfg.batch_size) if focus is None else (
        focus[i:i + cfg.batch_size] for i in range(0, len(focus), cfg.batch_size))
    for ids in pages:
        for strategy in cfg.strategies:
            db.write(f"block_{strategy}", ids=ids, k=cfg.k, run_id=run_id)
        on_batch(len(ids))
    by = {r["method"]: r["pairs"] for r in db.query("block_count", run_id=run_id)}
    total = db.query("candidate_total", run_id=run_id)[0]["pairs"]
    return BlockStats(run_id=run_id, pairs_by_strategy=by, pairs=total)


def id_pages(db: Database, size: int):
    """Entity ids in pages of ``size`` (keyset pagination: stable while edges are written)."""
    after = ""
    while True:
        ids = [r["id"] for r in db.query("page_entity_ids", after=after, limit=size)]
        if not ids:
            return
        yield ids
        after = ids[-1]
