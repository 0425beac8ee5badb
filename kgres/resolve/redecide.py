"""``redecide``: merges made on a short form's name are looked at again once a new name makes it ambiguous.

A short form ("Kowalski", "Dr. Jones", "J. Smith", "AUR") with one holder in the graph can only
mean that holder, so a resolve merges it there by name. When a later increment brings a second
holder ("Piotr Kowalski" next to "Anna Kowalski"), one run over the whole graph would have found
the short form ambiguous and placed it by its context or left it in review; a merge made earlier
on the name alone is an accident of the order the documents arrived in.

So an incremental resolve, before it collapses copies, takes back out of their holder the entities
that an automatic merge retired into it when the holder table now has a holder group for their
short form that only the increment's names carry and the holder they are in does not dominate (see
:mod:`kgres.resolve.ambiguity`); they join the increment's focus and are scored again, under the
same rules as in one run. The move is one of the increment's first run (method ``redecide``), so
``kgres rollback`` puts them back and retires them again as they were. Human and judge decisions
are never revisited.
"""

from __future__ import annotations

import json

from kgres.db import Database
from kgres.resolve.ambiguity import Ambiguity, holder_keys, short_keys
from kgres.resolve.merge import refresh


def redecide(db: Database, run_id: str, new_ids: list[str], ambiguity: Ambiguity, decided_by: str) -> list[str]:
    """Revive, as moves of ``run_id``, the entities merged into a holder of a short form that the
    increment's entities (``new_ids``) made ambiguous; returns their ids (sorted), with those an
    interrupted attempt of the same run revived. ``ambiguity`` is the holder table with the
    increment's names in it."""
    earlier = [r["id"] for r in db.read("resolve_redecide_revived", _plain=True, run_id=run_id)]
    # only a name the graph did not carry can form a new holder group (resolve_redecide_names)
    keys = {k for r in db.read("resolve_redecide_names", _plain=True, ids=new_ids)
            for k in holder_keys(tuple(r["tokens"]), r["type"], r["core"], r["acronym"])}
    # the merged short forms first (few, from an index): the holder groups of the graph's common first
    # names and surnames cost name comparisons (100 new mentions into 100k: 0.5 s building every key's)
    found = [(key, r) for r in db.read("resolve_redecide_find", _plain=True, cores=sorted({_core(k) for k in keys}))
             for key in sorted(short_keys(tuple(r["tokens"] or ()), r["type"]) & keys)]
    opened = _opened(db, {key for key, _ in found}, new_ids, ambiguity)
    chosen: dict[str, tuple[tuple, dict]] = {}
    for key, r in found:
        if r["id"] in chosen:
            continue  # an untyped word asked under two keys (kgres.resolve.ambiguity.short_keys)
        if key not in opened or not any(r["holder_core"] in g for g in opened[key]):
            continue  # not a short form of the holder it is in
        if ambiguity.dominates(key, r["holder_core"], less=r["mentions"] or 1):
            continue  # the holder carries the name by the popularity prior, without the short form's own mentions
        chosen[r["id"]] = (key, r)
    standing = {r["id"] for r in db.read("resolve_redecide_standing", _plain=True, ids=sorted(chosen),
                                         decided_by=decided_by)} if chosen else set()
    rows = [{"id": i, "evidence": json.dumps({
        "rule": "short form made ambiguous by a new holder: scored again",
        "short_form": r["core"], "holder": r["holder_core"],
        "holders": [sorted(g) for g in opened[key]]}, sort_keys=True)}
        for i, (key, r) in sorted(chosen.items()) if i in standing]
    if not rows:
        return earlier
    moved = db.query("resolve_redecide", rows=rows, run_id=run_id, decided_by=decided_by)
    refresh(db, sorted({r["id"] for r in moved} | {r["holder"] for r in moved}))
    return sorted({r["id"] for r in moved} | set(earlier))


def _core(key: tuple) -> str:
    """The name core of the short form ``key`` stands for ("jones", "d jones", "aur")."""
    return key[2] if key[0] == "a" else " ".join(key[1:])


def _opened(db: Database, keys: set[tuple], new_ids: list[str], ambiguity: Ambiguity) -> dict[tuple, list[set[str]]]:
    """Those of ``keys`` with two or more holder groups of which one is new (none of its names is
    carried by an entity outside ``new_ids``), each with its holder groups."""
    ambiguity.prefetch(keys)
    groups = {k: g for k in keys if len(g := ambiguity.groups(k)) >= 2}
    if not groups:
        return {}
    cores = sorted({c for gs in groups.values() for g in gs for c in g})
    held = {r["core"] for r in db.read("resolve_redecide_held", _plain=True, cores=cores, ids=new_ids)}
    return {k: gs for k, gs in groups.items() if any(not (g & held) for g in gs)}
