"""``kgres review`` and ``kgres decide``: human decisions on pairs, recorded and binding.

``accept`` merges two entities at once as a recorded run (``kgres rollback`` undoes it);
``reject`` records ``NOT_SAME_AS``, which every later run honours, through later merges too. Either
way the decision is kept as a training label (``:PairLabel``) with the pair's comparison levels, so
the next match model learns from it. ``unsure`` changes nothing and teaches nothing: the pair keeps
its band, marked with who deferred it and why, and waits at the back of the review console's queue.
"""

from __future__ import annotations

import getpass
import json
from typing import Any, Literal

from pydantic import BaseModel

from kgres import runs
from kgres.db import Database
from kgres.errors import KgresError
from kgres.resolve.cluster import Evidence, Group
from kgres.resolve.merge import apply_groups, finish_decisions
from kgres.resolve.pipeline import STRATEGIES


Decision_ = Literal["accept", "reject", "unsure"]


class ScoredPair(BaseModel):
    """Two entities a run scored, with the newest run's score (``kgres review``, the console's queue)."""

    a_id: str
    a_name: str
    a_type: str | None
    b_id: str
    b_name: str
    b_type: str | None
    score: float
    run_id: str


class ReviewPair(ScoredPair):
    signals: dict[str, Any]


class Decision(BaseModel):
    decision: Decision_
    a: str
    b: str
    decided_by: str
    run_id: str | None = None


def review(db: Database, limit: int = 50) -> list[ReviewPair]:
    """Undecided review-band pairs between current entities, best first."""
    return [ReviewPair(**{**r, "signals": json.loads(r["signals"] or "{}")})
            for r in db.read("curate_review_list", limit=limit)]


def find_entity(db: Database, q: str) -> dict[str, Any]:
    """The one current entity with this id or name.

    Raises:
        KgresError: none, or several (then use the id).
    """
    rows = db.read("curate_entity_find", q=q)
    if not rows:
        raise KgresError(f"no entity with id or name '{q}'")
    if len(rows) > 1:
        raise KgresError(f"'{q}' names {len(rows)} entities ({', '.join(r['id'] for r in rows[:5])}); use an id")
    return rows[0]


def learn(db: Database, a: str, b: str, same: bool, decided_by: str) -> None:
    """Keep a decision as a training label of the match model, with the levels the pair has now: the
    next model learns from it (after a merge or a split the pair itself is gone)."""
    from kgres.curate.explain import pair_levels
    from kgres.resolve.score.training import record_label

    record_label(db, a, b, same, pair_levels(db, a, b), decided_by)


def decide(db: Database, decision: Decision_, a: str, b: str, reason: str = "",
           decided_by: str | None = None, method: str = "human", confidence: float = 1.0) -> Decision:
    """Record a decision on two entities (ids or unique names): a person's by default, or the LLM
    judge's (``method="llm"``, with its confidence)."""
    who = decided_by or f"human:{getpass.getuser()}"
    finish_decisions(db, list(STRATEGIES))  # an earlier accept killed mid-merge: finish it first
    ea, eb = find_entity(db, a), find_entity(db, b)
    if ea["id"] == eb["id"]:
        raise KgresError(f"'{a}' and '{b}' are already one entity ({ea['id']}); split a mention off first")
    if decision == "unsure":
        if not db.query("curate_decide_unsure", a=ea["id"], b=eb["id"], decided_by=who, reason=reason)[0]["n"]:
            raise KgresError(f"{ea['id']} and {eb['id']} are not a candidate pair; nothing to defer")
        return Decision(decision="unsure", a=ea["id"], b=eb["id"], decided_by=who)
    if decision == "reject":
        learn(db, ea["id"], eb["id"], False, who)
        db.query("curate_decide_reject", a=ea["id"], b=eb["id"], decided_by=who, reason=reason)
        return Decision(decision="reject", a=ea["id"], b=eb["id"], decided_by=who)
    blocked = db.read("resolve_pairs_not_same_as", ids=[ea["id"], eb["id"]])
    if blocked:
        raise KgresError(f"{ea['id']} and {eb['id']} were recorded as NOT_SAME_AS; remove that decision first")
    learn(db, ea["id"], eb["id"], True, who)
    run_id = runs.new_id("decision")
    runs.start(db, run_id, json.dumps({"decision": "accept", "reason": reason}), strategy=method)
    keep, other = sorted([ea, eb], key=lambda e: (-(e["mention_count"] or 1), -len(e["key_core"] or ""), e["id"]))
    evidence = Evidence(linked_to=keep["id"], score=confidence, rule=method, reason=reason)
    group = Group(members=(keep["id"], other["id"]), canonical=keep["id"], confidence=confidence,
                  evidence={keep["id"]: evidence, other["id"]: evidence})
    db.query("curate_decide_accepted", a=ea["id"], b=eb["id"])
    apply_groups(db, [group], run_id, method=method, decided_by=who)
    runs.finish(db, run_id, json.dumps({"merged_entities": 1}))
    return Decision(decision="accept", a=keep["id"], b=other["id"], decided_by=who, run_id=run_id)
