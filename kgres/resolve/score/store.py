"""Match models in the database: ``kgres model show | train | export | import``.

Every scored run keeps the model it trained (``(:ResolutionRun)-[:TRAINED]->(:MatchModel)``) or
used (``USED``). A *pinned* model (trained by ``kgres model train`` or imported) is used by later
resolves instead of training again, as long as it weighs the same comparisons the graph has
(``[resolve.model] train = "auto"``).
"""

from __future__ import annotations

import json
import math
import uuid
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from kgres import runs
from kgres.db import Database
from kgres.errors import InputError, KgresError
from kgres.progress import Progress, as_progress
from kgres.resolve.score.levels import Comparison, comparisons
from kgres.resolve.score.model import MODEL_VERSION, MatchModel


class LevelInfo(BaseModel):
    level: str
    m: float
    u: float
    u_random: float
    weight: float  # log2(m / u): what the level adds to a pair's match weight (before term frequency)


class ComparisonInfo(BaseModel):
    name: str
    kind: str
    levels: list[LevelInfo]


class ModelInfo(BaseModel):
    """A stored model, as ``kgres model show`` prints it."""

    id: str
    version: str
    trained_at: str | None
    run_id: str | None
    pinned: bool
    prior: float  # the share of matches among the candidate pairs it was trained on
    prior_weight: float  # log2 prior odds, where every pair's waterfall starts
    u_source: str
    pairs: int
    labels: int  # decided pairs (people's, the judge's) it learned from
    auto_threshold: float | None = None
    review_threshold: float | None = None
    expected_precision: float | None = None
    expected_recall: float | None = None
    comparisons: list[ComparisonInfo]


def info(row: dict[str, Any]) -> ModelInfo:
    model = MatchModel.from_json(row["model_json"])
    comps = [ComparisonInfo(name=c.name, kind=c.kind, levels=[
        LevelInfo(level=lv, m=round(m, 6), u=round(u, 6), u_random=round(ur, 6), weight=round(float(w), 3))
        for lv, m, u, ur, w in zip(c.levels, c.m, c.u, c.u_random, c.log2_bf(model.u_source))])
        for c in model.comparisons]
    return ModelInfo(id=row["id"], version=row["version"] or MODEL_VERSION, trained_at=row["trained_at"],
                     run_id=row["run_id"], pinned=bool(row["pinned"]), prior=round(model.prior, 6),
                     prior_weight=round(model.prior_weight(), 4), u_source=model.u_source, pairs=model.pairs,
                     labels=model.labels, auto_threshold=row["auto_threshold"],
                     review_threshold=row["review_threshold"], expected_precision=row["expected_precision"],
                     expected_recall=row["expected_recall"], comparisons=comps)


def get(db: Database, model_id: str | None = None) -> dict[str, Any]:
    """The stored model ``model_id``, or the newest one.

    Raises:
        KgresError: no such model, or none at all.
    """
    rows = db.read("resolve_model_get", id=model_id, pinned=False, limit=1)
    if not rows:
        raise KgresError(f"no match model '{model_id}'" if model_id else
                         "no match model yet: 'kgres resolve' trains one, or 'kgres model train'")
    return rows[0]


def load(db: Database, model_id: str | None = None) -> MatchModel:
    return MatchModel.from_json(get(db, model_id)["model_json"])


def of_run(db: Database, run_id: str) -> tuple[MatchModel, dict[str, Any]] | None:
    """The model a run trained or used, with its thresholds; None for runs without one."""
    rows = db.read("resolve_model_of_run", run_id=run_id)
    return (MatchModel.from_json(rows[0]["model_json"]), rows[0]) if rows else None


def export(db: Database, model_id: str | None = None) -> str:
    """The model as JSON, to keep or to import into another database."""
    return get(db, model_id)["model_json"]


def import_model(db: Database, text: str, source: str = "<stdin>") -> str:
    """Store a model exported from ``kgres model export`` as pinned; returns its new id.

    Raises:
        InputError: not a model this kgres can read.
    """
    try:
        model = MatchModel.from_json(text)
        if model.version != MODEL_VERSION:
            raise ValueError(f"model version {model.version!r}, this kgres reads {MODEL_VERSION!r}")
        check(model)
    except (ValueError, TypeError, KeyError) as e:
        raise InputError(f"not a kgres match model: {e}", path=source) from e
    model.id, model.run_id = f"model-{uuid.uuid4().hex[:12]}", None
    return store(db, model, None, trained=False, pinned=True)


def check(model: MatchModel) -> None:
    """Raise ValueError unless every comparison is one kgres knows, with its levels, and m/u are
    probabilities over them."""
    known = {c.name: c for c in comparisons([(name.split(":", 1)[1], kind) for name, kind in model.spec()
                                             if name.startswith("attr:")])}
    for c in model.comparisons:
        if c.name not in known:
            raise ValueError(f"unknown comparison {c.name!r}")
        if c.levels != known[c.name].level_names():
            raise ValueError(f"comparison {c.name!r} has levels {c.levels}, expected {known[c.name].level_names()}")
        for what in ("m", "u", "u_random"):
            values = getattr(c, what)
            if len(values) != len(c.levels) or any(not (0 < v <= 1) for v in values) or \
                    not math.isclose(sum(values), 1.0, abs_tol=1e-3):
                raise ValueError(f"comparison {c.name!r}: {what} must be probabilities over its levels")
    if not 0 < model.prior < 1:
        raise ValueError("prior must be between 0 and 1")


def fits(model: MatchModel) -> bool:
    """Whether this kgres reads ``model`` as it was stored: every comparison one it knows, with the
    same levels in the same order (:func:`check`). A model an older kgres stored before a level was
    added would weigh each pair by another level's weights."""
    try:
        check(model)
    except (ValueError, KeyError, TypeError):
        return False
    return True


def comparisons_of(model: MatchModel) -> list[Comparison]:
    """The comparisons a stored model weighs, in its order."""
    spec = [(name.split(":", 1)[1], kind) for name, kind in model.spec() if name.startswith("attr:")]
    comps = {c.name: c for c in comparisons(spec)}
    return [comps[name] for name, _ in model.spec()]


def pinned_model(db: Database, comps: list[Comparison]) -> MatchModel | None:
    """The newest pinned model (trained by ``kgres model train`` or imported) that weighs exactly
    these comparisons, at this kgres's levels (:func:`fits`), or None."""
    want = [(c.name, c.kind) for c in comps]
    for row in db.read("resolve_model_get", id=None, pinned=True, limit=20):
        model = MatchModel.from_json(row["model_json"])
        if model.spec() == want and fits(model):
            return model
    return None


def store(db: Database, model: MatchModel, run_id: str | None, trained: bool, pinned: bool,
          thresholds: tuple[float, float] = (math.nan, math.nan),
          quality: tuple[float, float] = (math.nan, math.nan)) -> str:
    """Keep ``model`` in the database, linked to ``run_id`` (TRAINED or USED). A model used again (not
    ``trained``) that the database already keeps under its id is not sent again."""
    clean = [None if isinstance(x, float) and math.isnan(x) else x for x in (*thresholds, *quality)]
    if model.id and not trained:
        used = db.query("resolve_model_use", id=model.id, run_id=run_id, auto_threshold=clean[0],
                        review_threshold=clean[1], expected_precision=clean[2], expected_recall=clean[3])
        if used:
            return used[0]["id"]
    if not model.id:
        model.id = f"model-{uuid.uuid4().hex[:12]}"
    return db.query("resolve_model_store", id=model.id, version=MODEL_VERSION, model_json=model.to_json(),
                    spec_json=json.dumps(model.spec()), run_id=run_id, trained=trained, pinned=pinned,
                    prior=model.prior, auto_threshold=clean[0], review_threshold=clean[1],
                    expected_precision=clean[2], expected_recall=clean[3], pairs=model.pairs,
                    labels=model.labels)[0]["id"]


def train(db: Database, cfg: Any, on_step: Progress | Callable[[str], None] = Progress(),
          fastrp_dimensions: int = 128) -> ModelInfo:
    """Train a model on the graph as it is (normalize, embed, block as ``resolve`` would, score, fit)
    and pin it, without merging anything: the candidate pairs are removed afterwards and the run is
    recorded as ``train``. ``cfg``: a :class:`~kgres.resolve.pipeline.ResolveConfig`. ``on_step`` is
    told of each stage (normalize, embed, block, train) and of the work each counts."""
    from kgres.resolve.block import block
    from kgres.resolve.embed import embed
    from kgres.resolve.normalize import normalize
    from kgres.resolve.score.stage import load_ambiguity, score_model

    progress = as_progress(on_step)
    run_id = runs.new_id("train")
    runs.start(db, run_id, cfg.model_dump_json(), "train")
    progress.stage("normalize")
    progress.expect(None, "entities")
    normalize(db, strip_legal=cfg.strip_legal_suffixes, on_batch=progress.advance)
    if cfg.embed.enabled:
        progress.stage("embed")
        progress.expect(db.count("Entity"), "entities")
        embed(db, cfg.embed, fastrp_dimensions=fastrp_dimensions, on_batch=progress.advance)
    progress.stage("block")
    blocked = block(db, run_id, cfg.blocking(), on_batch=progress.advance,
                    on_total=lambda n: progress.expect(n, "entity reads"))
    progress.stage("train")
    progress.expect(blocked.pairs, "pairs")
    stats, model = score_model(db, run_id, cfg.model.model_copy(update={"train": "always"}), load_ambiguity(db),
                               on_batch=progress.advance)
    progress.end()
    db.write("resolve_model_pin", id=model.id)
    while db.query("resolve_rollback_candidates", run_id=run_id, limit=50_000)[0]["removed"]:
        pass
    runs.finish(db, run_id, stats.model_dump_json())
    return info(get(db, model.id))
