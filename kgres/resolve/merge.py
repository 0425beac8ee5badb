"""``merge`` and its undo: move mentions to canonical entities with a recorded, reversible decision.

Mode ``merge`` (direct): every mention of a group's other members is re-pointed to the canonical
entity (``cypher/resolve_merge_groups.cypher``); the superseded ``REFERS_TO`` survives as a typed
``REFERRED_TO`` history edge and absorbed entities become ``:RetiredEntity``. The members' ``RELATED``
edges are joined onto the canonical's in the same transaction, as a derivation from the raw triples
of the moved mentions gives them, and the canonical's aggregates are recomputed from its mentions
(rather than nodes merged with ``apoc.refactor.mergeNodes``), so the entity layer stays a pure
projection of the mention layer and :func:`rollback`, which derives what it restores from the mentions
and triples again (:func:`refresh`), restores the earlier state exactly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace

from kgres.db import Database, batches
from kgres.errors import KgresError
from kgres.resolve.cluster import Group
from kgres.resolve.embed import refresh_context


def apply_groups(db: Database, groups: Sequence[Group], run_id: str, method: str, decided_by: str,
                 batch_size: int = 500, max_members: int = 5000,
                 on_batch: Callable[[int], None] = lambda n: None) -> int:
    """Merge each group into its canonical entity; return the number of entities retired
    (``on_batch`` is told how many after each transaction).

    A transaction holds at most ``batch_size`` groups and about ``max_members`` members: a group
    larger than that (a chaining baseline's component of tens of thousands) is merged into its
    canonical in parts, one transaction each, instead of exhausting the transaction memory.
    Every part is recorded first (``resolve_merge_plan_write``, until the run finishes), so that an
    interrupted merge is finished by :func:`resume_plan` exactly as decided."""
    parts = [payload(batch) for batch in _transactions(groups, batch_size, max_members)]
    for i, part in enumerate(parts):
        db.write("resolve_merge_plan_write", run_id=run_id, part=i, groups_json=json.dumps(part),
                 method=method, decided_by=decided_by)
    return _apply(db, parts, run_id, method, decided_by, on_batch)


@dataclass(frozen=True)
class Resumed:
    """What a recorded merge plan held: groups, entities retired, canonical ids, and every id of
    the groups (``merged``: canonicals and the members merged into them)."""

    groups: int
    retired: int
    canonicals: list[str]
    merged: list[str]


def resume_plan(db: Database, run_id: str) -> Resumed | None:
    """Apply the merge plan an interrupted pass recorded (parts already applied change nothing);
    None when the pass had not decided its merges yet."""
    rows = db.read("resolve_merge_plan_read", run_id=run_id)
    if not rows:
        return None
    parts = [json.loads(r["groups_json"]) for r in rows]
    retired = _apply(db, parts, run_id, rows[0]["method"], rows[0]["decided_by"])
    canonicals = sorted({g["canonical"] for part in parts for g in part})
    merged = sorted({m["id"] for part in parts for g in part for m in g["members"]} | set(canonicals))
    return Resumed(groups=len(canonicals), retired=retired, canonicals=canonicals, merged=merged)


def finish_decisions(db: Database, strategies: list[str]) -> int:
    """Finish the decisions an interrupted command left running (strategies other than
    ``strategies``): apply their recorded merge plan (what already committed changes nothing),
    refresh what it touched, mark them done; then refresh what a killed split left ``:Stale``.
    Returns how many decisions were finished."""
    from kgres import runs

    rows = db.read("run_unfinished_decisions", strategies=strategies)
    for r in rows:
        done = resume_plan(db, r["id"])
        runs.finish(db, r["id"], json.dumps({"merged_entities": done.retired if done else 0, "resumed": True}))
    refresh_stale(db)  # a split (or a rollback) killed before its refresh
    return len(rows)


def refresh_stale(db: Database) -> int:
    """Refresh every entity marked ``:Stale`` (by a rollback's moves or a split, in the transaction
    that changed it), with the context embeddings their new ``RELATED`` edges change
    (:func:`refresh_with_context`); returns how many entities. What a killed command left
    unrefreshed is finished here, its context embeddings included."""
    refreshed = 0
    while ids := [r["id"] for r in db.read("resolve_rollback_stale", limit=ROLLBACK_BATCH)]:
        db.write("resolve_embed_context_mark", ids=ids)
        refresh(db, ids)
        refreshed += len(ids)
    recompute_marked_contexts(db)
    return refreshed


def refresh_with_context(db: Database, ids: list[str]) -> None:
    """:func:`refresh` ``ids`` (a split, a reflection that filtered triples) and then the context
    embeddings their new ``RELATED`` edges change. They are marked ``:ContextStale`` first, so a
    command killed in between leaves the record of what to recompute
    (:func:`recompute_marked_contexts`)."""
    db.write("resolve_embed_context_mark", ids=ids)
    refresh(db, ids)
    recompute_marked_contexts(db)


def recompute_marked_contexts(db: Database) -> None:
    """Recompute the context embeddings of the entities marked ``:ContextStale`` and of their
    neighbours (:func:`kgres.resolve.embed.refresh_context`), then clear the mark."""
    if ids := db.collected("resolve_embed_context_stale"):
        refresh_context(db, ids)
        db.write("resolve_embed_context_clear", ids=ids)


def _apply(db: Database, parts: list[list[dict]], run_id: str, method: str, decided_by: str,
           on_batch: Callable[[int], None] = lambda n: None) -> int:
    retired = 0
    for part in parts:
        stale = db.query("resolve_merge_groups", groups=part, run_id=run_id, method=method,
                         decided_by=decided_by)[0]["stale"]
        # the members' RELATED edges moved with them: the canonicals' aggregates are what is left to derive
        db.write("resolve_merge_refresh", ids=sorted({g["canonical"] for g in part}))
        if stale:
            refresh(db, sorted(stale))
        retired += sum(len(g["members"]) for g in part)
        on_batch(sum(len(g["members"]) for g in part))
    return retired


def _transactions(groups: Sequence[Group], batch_size: int, max_members: int) -> Iterator[list[Group]]:
    """``groups`` in transaction-sized batches, large groups split into parts that share the canonical."""
    return batches((part for g in groups for part in _parts(g, max_members)), max_members,
                   size=lambda g: len(g.members) - 1, max_items=batch_size)


def _parts(g: Group, max_members: int) -> list[Group]:
    others = [m for m in g.members if m != g.canonical]
    if len(others) <= max_members:
        return [g]
    return [replace(g, members=(g.canonical, *others[i:i + max_members])) for i in range(0, len(others), max_members)]


def payload(groups: Sequence[Group]) -> list[dict]:
    """Groups as the resolve_merge_groups / resolve_merge_same_as parameter: canonical and members with evidence."""
    return [{"canonical": g.canonical,
             "members": [{"id": m, "confidence": g.evidence[m].score,
                          "evidence": json.dumps(g.evidence[m].to_dict(), sort_keys=True)}
                         for m in g.members if m != g.canonical]} for g in groups]


def link_groups(db: Database, groups: Sequence[Group], run_id: str, method: str, decided_by: str,
                batch_size: int = 500) -> int:
    """Synonym mode: a ``SAME_AS`` from each member to its group's canonical; nothing moves.
    Returns the number of links."""
    for batch in batches(groups, batch_size, size=lambda g: 1):
        db.write("resolve_merge_same_as", groups=payload(batch), run_id=run_id, method=method, decided_by=decided_by)
    return sum(len(g.members) - 1 for g in groups)


def refresh(db: Database, ids: list[str]) -> None:
    """Recompute aggregates and RELATED edges of ``ids`` from their mentions and active triples."""
    db.write("resolve_merge_refresh", ids=ids)
    db.write("resolve_merge_related_delete", ids=ids)
    db.write("resolve_merge_related_rebuild", ids=ids)


def rollback(db: Database, run_id: str) -> int:
    """Undo every merge and ``SAME_AS`` link of ``run_id`` (and of its later passes, newest first);
    return how many entities were revived or recomputed.

    Raises:
        KgresError: unknown run, or a later run moved the same mentions again (roll that back first).
    """
    run = db.query("run_get", run_id=run_id)
    if not run:
        raise KgresError(f"no resolution run '{run_id}'")
    if run[0]["status"] == "rolled_back":
        raise KgresError(f"run {run_id} is already rolled back")
    n = sum(rollback(db, child["id"]) for child in db.query("run_children", run_id=run_id))
    later = [r for r in db.query("resolve_rollback_blockers", run_id=run_id)[0]["runs"] if r]
    if later:
        raise KgresError(f"run {run_id} cannot be rolled back before the later run(s) that moved the same "
                         f"mentions: {', '.join(sorted(later))}")
    while db.query("resolve_rollback_same_as", run_id=run_id, limit=ROLLBACK_BATCH)[0]["removed"]:
        pass
    while db.query("resolve_rollback_run", run_id=run_id, limit=ROLLBACK_BATCH)[0]["moved"]:
        pass  # bounded transactions; each batch is consistent on its own and a rerun continues
    db.query("resolve_rollback_revived", run_id=run_id)  # what it took back from a holder (kgres.resolve.redecide)
    refreshed = refresh_stale(db)  # what the moves marked :Stale, including an interrupted rollback's
    while db.query("resolve_rollback_candidates", run_id=run_id, limit=ROLLBACK_BATCH * 10)[0]["removed"]:
        pass
    db.query("resolve_rollback_finish", run_id=run_id)
    return n + refreshed


ROLLBACK_BATCH = 5000
