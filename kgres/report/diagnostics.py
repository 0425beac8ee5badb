"""``kgres report``: how fragmented the graph is, what resolution did, and where it may be wrong.

Everything is computed in the database (GDS WCC, Cypher); Python only buckets and formats. The HTML
form (:mod:`kgres.report.html`) is one self-contained file with inline SVG plots.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from kgres.db import Database
from kgres.db.gds import projection
from kgres.resolve.score.store import ModelInfo, info
from kgres.schema import Layer

SIZE_BUCKETS = ("1", "2", "3-4", "5-8", "9-16", "17-64", "65-256", "257+")


class Components(BaseModel):
    layer: Layer
    nodes: int
    relations: int
    components: int
    largest: int
    largest_share: float
    size_distribution: dict[str, int] = {}  # components per size bucket (SIZE_BUCKETS)


def components(db: Database, layer: Layer) -> Components:
    """WCC over the unresolved mention graph (``mentions``) or the resolved entity graph (``entities``)."""
    with projection(db, f"report_project_{layer}", "wcc") as graph:
        sizes = {r["size"]: r["components"] for r in db.read("report_component_sizes", graph=graph.name)}
    nodes = sum(s * n for s, n in sizes.items())
    largest = max(sizes, default=0)
    dist = dict.fromkeys(SIZE_BUCKETS, 0)
    for size, n in sizes.items():
        dist[_bucket(size)] += n
    # Undirected projections store each relationship in both directions.
    return Components(layer=layer, nodes=nodes, relations=graph.relationships // 2,
                      components=sum(sizes.values()), largest=largest,
                      largest_share=round(largest / nodes, 4) if nodes else 0.0, size_distribution=dist)


def _bucket(size: int) -> str:
    for label in SIZE_BUCKETS:
        lo, _, hi = label.rstrip("+").partition("-")
        if label.endswith("+") and size >= int(lo):
            return label
        if int(lo) <= size <= int(hi or lo):
            return label
    return SIZE_BUCKETS[-1]


class Report(BaseModel):
    counts: dict[str, int]
    entity_reduction: float       # 1 - entities / mentions
    relation_reduction: float     # 1 - RELATED edges / raw triples
    before: Components
    after: Components
    runs: list[dict[str, Any]]
    near_duplicates: list[dict[str, Any]]
    multi_type_names: list[dict[str, Any]]
    variant_suspects: list[dict[str, Any]]
    self_loops: list[dict[str, Any]]
    weak_groups: list[dict[str, Any]]
    score_histogram: dict[str, list[int]]  # band -> pairs per 0.05 score bucket, latest run, each pair at its last pass
    score_run: str | None
    reflection_histogram: list[int] = []   # reflected triples per 0.1 score bucket
    filtered_triples: list[dict[str, Any]] = []
    model: ModelInfo | None = None  # the match model the latest default run scored with


def report(db: Database, limit: int = 20) -> Report:
    """Build the whole report (see module docstring); ``limit`` bounds every list."""
    counts = db.read("report_counts")[0]
    runs = [_run(r) for r in db.read("report_runs", limit=limit)]
    latest = next((r["id"] for r in runs if r["strategy"] not in ("human", "llm", None)), None)
    hist: dict[str, list[int]] = {}
    if latest:
        for r in db.read("report_scores", run_id=latest):
            hist.setdefault(r["band"], [0] * 20)[r["bucket"]] += r["pairs"]
    mentions, triples = counts["mentions"], counts["triples"]
    model_id = next((r["model_id"] for r in runs if r.get("model_id")), None)
    return Report(
        counts=counts,
        entity_reduction=round(1 - counts["entities"] / mentions, 4) if mentions else 0.0,
        relation_reduction=round(1 - counts["relations"] / triples, 4) if triples else 0.0,
        before=components(db, "mentions"), after=components(db, "entities"), runs=runs,
        near_duplicates=db.read("report_near_duplicates", limit=limit),
        multi_type_names=db.read("report_multi_type", limit=limit),
        variant_suspects=db.read("report_variant_suspects", limit=limit, min_chars=400),
        self_loops=db.read("report_self_loops", limit=limit),
        weak_groups=db.read("report_weak_groups", limit=limit),
        score_histogram=hist, score_run=latest, reflection_histogram=_reflection(db),
        filtered_triples=db.read("report_filtered", limit=limit),
        model=_model(db, model_id) if model_id else None)


def _model(db: Database, model_id: str) -> ModelInfo | None:
    rows = db.read("resolve_model_get", id=model_id, pinned=False, limit=1)
    return info(rows[0]) if rows else None  # None: deleted since


def _reflection(db: Database) -> list[int]:
    out = [0] * 10
    for r in db.read("report_reflection"):
        out[r["bucket"]] += r["triples"]
    return out if any(out) else []


def _run(r: dict[str, Any]) -> dict[str, Any]:
    """One resolution over all its passes: entities before the first, after the last, sums between."""
    passes = [json.loads(s) for s in r.get("stats") or ()]
    out = {"id": r["id"], "strategy": r["strategy"], "status": r["status"], "started_at": r["started_at"]}
    if passes:
        out |= {"entities_before": passes[0].get("entities_before"), "entities_after": passes[-1].get("entities_after"),
                "passes": len(passes)}
        for k in ("merged_entities", "synonym_links", "candidate_pairs"):
            if any(k in p for p in passes):
                out[k] = sum(p.get(k, 0) for p in passes)
        for k in ("model_id", "auto_threshold", "expected_precision", "expected_recall"):  # the first scored pass's
            v = next((p[k] for p in passes if p.get(k) is not None), None)
            if v is not None:
                out[k] = v
    return out
