"""``report`` (first part): connected components of the mention layer and the entity layer, in GDS."""

from __future__ import annotations

import uuid
from typing import Literal

from pydantic import BaseModel

from kgres.db import Database

Layer = Literal["mentions", "entities"]


class Components(BaseModel):
    layer: Layer
    nodes: int
    relations: int
    components: int
    largest: int
    largest_share: float


def components(db: Database, layer: Layer) -> Components:
    """WCC over the unresolved mention graph (``mentions``) or the resolved entity graph (``entities``)."""
    graph = f"kgres_wcc_{uuid.uuid4().hex[:8]}"
    projected = db.query(f"components_project_{layer}", graph=graph)[0]
    try:
        wcc = db.query("components_wcc", graph=graph)[0]
    finally:
        db.query("components_drop", graph=graph)
    nodes = wcc["nodes"] or 0
    # Undirected projections store each relationship in both directions.
    return Components(layer=layer, nodes=nodes, relations=projected["relationships"] // 2,
                      components=wcc["components"], largest=wcc["largest"] or 0,
                      largest_share=round((wcc["largest"] or 0) / nodes, 4) if nodes else 0.0)
