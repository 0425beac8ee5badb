"""``kgres explain``: the alias trail of an entity, straight from the graph; with ``--pair``, the
waterfall of the match model's evidence for two entities."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
from pydantic import BaseModel

from kgres.db import Database
from kgres.errors import KgresError


class Explanation(BaseModel):
    entity: dict[str, Any]
    mentions: list[dict[str, Any]]
    pairs: list[dict[str, Any]]
    rejected: list[dict[str, Any]]


def explain(db: Database, name_or_id: str) -> Explanation:
    """Explain the entity with this id, or the best-supported entity with this name or alias.

    Raises:
        KgresError: nothing matches.
    """
    found = db.read("curate_explain_find", q=name_or_id)
    if not found:
        raise KgresError(f"no entity with id, name or alias '{name_or_id}'")
    row = db.read("curate_explain_entity", id=found[0]["id"])[0]
    row["mentions"].sort(key=lambda m: m["id"])
    return Explanation(**row)


class WaterfallStep(BaseModel):
    """One step of a pair's waterfall: the prior, or a comparison at its level with its weight."""

    step: str
    level: str | None
    log2: float  # this step's log2 Bayes factor (the prior: log2 prior odds)
    match_weight: float  # running total
    probability: float  # running match probability


class PairExplanation(BaseModel):
    a: dict[str, Any]
    b: dict[str, Any]
    # "stored": the pair as its run scored it; "recomputed": a pair its run rejected (which keeps no
    # evidence), compared again with that run's model as the graph is now; "now": any other pair,
    # compared as the graph is now with the newest model
    source: str
    run_id: str | None
    model_id: str | None
    steps: list[WaterfallStep]
    match_weight: float
    probability: float  # the last step's; 0 when a cannot-link forbids the pair whatever the evidence
    band: str | None
    cannot_link: str | None
    capped: str | None


def explain_pair(db: Database, a: str, b: str) -> PairExplanation:
    """The waterfall of two entities (ids or unique names): the prior, then each comparison's level
    and Bayes factor, to the match probability. A pair a run scored is shown as that run's model
    scored it (the last step's probability is the one stored on the pair); a pair a run rejected,
    which keeps no evidence, is compared again with that run's model as the graph is now; any other
    pair is compared as the graph is now, with the newest model.

    Raises:
        KgresError: an entity is unknown, or no model exists yet to weigh a new pair.
    """
    from kgres.curate.review import find_entity
    from kgres.resolve.score import store

    ea, eb = find_entity(db, a), find_entity(db, b)
    row = db.read("curate_explain_pair", a=ea["id"], b=eb["id"])[0]
    stored = row["stored"]
    side = lambda e: {"id": e["id"], "name": e["name"], "type": e.get("type")}  # noqa: E731
    if stored:
        found = store.of_run(db, stored["run_id"])
        if found is None:
            raise KgresError(f"run {stored['run_id']} kept no match model")
        model, meta = found
        if stored["signals_json"] is None:  # a rejected pair: scored again by the model that rejected it
            again = _now(db, ea, eb, row, model, side)
            return again.model_copy(update={"source": "recomputed", "run_id": stored["run_id"],
                                            "band": stored["band"]})
        signals = json.loads(stored["signals_json"])
        steps = _steps(model, signals.get("levels") or {}, signals.get("weights") or {})
        veto = signals.get("cannot_link")
        return PairExplanation(a=side(ea), b=side(eb), source="stored", run_id=stored["run_id"], model_id=meta["id"],
                               steps=steps, match_weight=steps[-1].match_weight,
                               probability=0.0 if veto else steps[-1].probability, band=stored["band"],
                               cannot_link=veto, capped=signals.get("capped"))
    return _now(db, ea, eb, row, store.load(db), side)


def _steps(model: Any, levels: dict[str, str], weights: dict[str, float]) -> list[WaterfallStep]:
    from kgres.resolve.score.model import probability

    total = model.prior_weight()
    out = [WaterfallStep(step="prior", level=None, log2=round(total, 4), match_weight=round(total, 4),
                         probability=float(probability(np.array([total]))[0]))]
    for c in model.comparisons:
        w = float(weights.get(c.name, 0.0))
        total += w
        out.append(WaterfallStep(step=c.name, level=levels.get(c.name), log2=round(w, 4), match_weight=round(total, 4),
                                 probability=float(probability(np.array([total]))[0])))
    return out


def _now(db: Database, ea: dict, eb: dict, row: dict, model: Any, side: Any) -> PairExplanation:
    from kgres.resolve.score.constraints import conflict
    from kgres.resolve.score.levels import NULL, PairFrame, tf_values, vectors
    from kgres.resolve.score.stage import Sides, load_ambiguity
    from kgres.resolve.score.store import comparisons_of

    comps = comparisons_of(model)
    sides = Sides(Sides.read(db, sorted({ea["id"], eb["id"]}), structural=False))
    x, y = sides.get(ea["id"], eb["id"]), sides.get(eb["id"], ea["id"])
    frame = PairFrame.of([(x, y)], [row["ego"]], [row["neighbour"]], [row["same_chunk"]], load_ambiguity(db),
                         model.tokens())
    gamma = vectors(frame, comps)
    weights = model.weights(gamma, tf_values(frame, comps))[0]
    levels = {c.name: c.levels[lv].name for c, lv in zip(comps, gamma[0]) if lv != NULL}
    steps = _steps(model, levels, {c.name: w for c, w in zip(comps, weights)})
    veto = conflict(x, y, row["not_same_as"], row["predicates"])
    return PairExplanation(a=side(ea), b=side(eb), source="now", run_id=None, model_id=model.id, steps=steps,
                           match_weight=steps[-1].match_weight, probability=0.0 if veto else steps[-1].probability,
                           band=None, cannot_link=veto, capped=None)


def pair_levels(db: Database, a: str, b: str) -> dict[str, str]:
    """The comparison levels of two current entities (by id), as a decision about them is kept for
    training (:func:`kgres.resolve.score.training.record_label`): the stored pair's if a run scored
    it, else compared now with the newest model's comparisons (the default ones before any model)."""
    from kgres.errors import KgresError
    from kgres.resolve.score import store
    from kgres.resolve.score.levels import NULL, PairFrame, comparisons, vectors
    from kgres.resolve.score.stage import Sides, load_ambiguity
    from kgres.resolve.score.training import attribute_kind

    row = db.read("curate_explain_pair", a=a, b=b)[0]
    if row["stored"] and row["stored"]["signals_json"]:  # a rejected pair keeps none: compared now
        return (json.loads(row["stored"]["signals_json"]).get("levels")) or {}
    sides = Sides(Sides.read(db, sorted({a, b}), structural=False))
    x, y = sides.get(a, b), sides.get(b, a)
    try:
        model = store.load(db)
        comps, tokens = store.comparisons_of(model), model.tokens()
    except KgresError:
        values: dict[str, list[str]] = {}
        for k, v in (*x.attributes, *y.attributes):
            values.setdefault(k, []).append(v)
        comps, tokens = comparisons([(k, attribute_kind(vs)) for k, vs in sorted(values.items())]), None
    frame = PairFrame.of([(x, y)], [row["ego"]], [row["neighbour"]], [row["same_chunk"]], load_ambiguity(db), tokens)
    return {c.name: c.levels[lv].name for c, lv in zip(comps, vectors(frame, comps)[0]) if lv != NULL}
