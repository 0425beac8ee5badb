"""Helpers for tests: snapshots of the whole graph, fixture writers, invariant checks."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kgres.db import Database

# Set at write time; they legitimately differ between two separate ingests of the same input.
VOLATILE = {"decided_at", "started_at", "finished_at"}
# Structural embeddings are caches of the current graph's shape, recomputed by every embed stage
# (after a rollback they describe the graph of the last pass until the next embed); never compared.
DERIVED = {"fastrp", "context_embedding", "kmeans_block"}


def snapshot(db: Database, keep_volatile: bool = True) -> tuple[list, list]:
    """Every node and relationship with labels/type and properties, as sorted comparable lists."""
    nodes = db.run("MATCH (n) WHERE NOT n:WriterLock RETURN labels(n) AS labels, properties(n) AS props")
    rels = db.run("MATCH (a)-[r]->(b) RETURN type(r) AS type, properties(r) AS props, "
                  "coalesce(a.id, elementId(a)) AS start, coalesce(b.id, elementId(b)) AS end")

    def clean(props: dict[str, Any]) -> str:
        return json.dumps({k: v for k, v in props.items()
                           if k not in DERIVED and (keep_volatile or k not in VOLATILE)},
                          sort_keys=True, default=str)

    return (sorted(json.dumps([sorted(n["labels"]), clean(n["props"])]) for n in nodes),
            sorted(json.dumps([r["type"], r["start"], r["end"], clean(r["props"])]) for r in rels))


HISTORY_LABELS = ("ResolutionRun", "MatchModel", "PairLabel")  # what ran and what was learned: kept
HISTORY_EDGES = ("TRAINED", "USED")


def graph_state(snap: tuple[list, list]) -> tuple[list, list]:
    """A snapshot without the history a rollback keeps (runs, the models they trained or used)."""
    nodes, rels = snap
    return ([n for n in nodes if not any(f'"{label}"' in n.split("]", 1)[0] for label in HISTORY_LABELS)],
            [r for r in rels if json.loads(r)[0] not in HISTORY_EDGES])


def counts(db: Database) -> dict[str, int]:
    """Nodes and relationships of the graph (the free writer lock node, kgres.db.lock, is not data)."""
    row = db.run("CALL () { MATCH (n) WHERE NOT n:WriterLock RETURN count(n) AS nodes } "
                 "CALL () { MATCH ()-[r]->() RETURN count(r) AS rels } RETURN nodes, rels")[0]
    return {"nodes": row["nodes"], "rels": row["rels"]}


def assert_one_refers_to_per_mention(db: Database) -> None:
    """Invariant 1: every Mention has exactly one REFERS_TO, to an existing Entity."""
    bad = db.run("MATCH (m:Mention) WITH m, COUNT { (m)-[:REFERS_TO]->(:Entity) } AS n "
                 "WHERE n <> 1 RETURN m.id AS id, n")
    assert bad == [], f"mentions without exactly one REFERS_TO: {bad}"


def assert_aggregates_current(db: Database) -> None:
    """What an entity stores about its mentions (aliases, mention_count, the alias trail retrieval
    reads) is what its mentions say now: no stage that moves a REFERS_TO leaves it stale."""
    bad = db.run("""
        MATCH (e:Entity)
        CALL (e) {
          OPTIONAL MATCH (m:Mention)-[r:REFERS_TO]->(e)
          WITH m.name AS alias, r.method AS method, r.run_id AS run_id, min(r.confidence) AS confidence,
               count(m) AS mentions
          ORDER BY mentions DESC, alias, method, run_id
          WITH collect(CASE WHEN mentions > 0 THEN [alias, method, run_id, toFloat(confidence), mentions] END) AS groups
          RETURN groups[0..10] AS walked, reduce(n = 0, g IN groups | n + g[4]) AS n
        }
        WITH e, walked, n, [j IN range(0, size(coalesce(e.trail_aliases, [])) - 1) |
             [e.trail_aliases[j], e.trail_methods[j], e.trail_run_ids[j], e.trail_confidences[j], e.trail_mentions[j]]]
             AS stored
        WHERE e.trail_aliases IS NULL OR stored <> walked OR e.mention_count <> n
        RETURN e.id AS id, e.mention_count AS count, n, stored, walked LIMIT 5""")
    assert bad == [], f"entities whose stored aggregates are stale: {bad}"


def assert_related_derived(db: Database) -> None:
    """The RELATED projection is what the active triples say now: one edge per (subject entity,
    object entity, predicate) of the entities their mentions refer to, its triple ids sorted and its
    weight their weights summed (a missing weight counts 1), between current entities only."""
    derived = db.run("""
        MATCH (s:Mention)-[t:RELATES]->(o:Mention) WHERE t.status = 'active'
        MATCH (s)-[:REFERS_TO]->(es:Entity)
        MATCH (o)-[:REFERS_TO]->(eo:Entity)
        WITH es, eo, t ORDER BY t.id
        RETURN es.id AS s, eo.id AS o, t.predicate AS p, collect(t.id) AS ids, sum(coalesce(t.weight, 1.0)) AS w""")
    stored = db.run("MATCH (a)-[r:RELATED]->(b) RETURN a.id AS s, b.id AS o, r.predicate AS p, r.triple_ids AS ids, "
                    "r.weight AS w, a:Entity AND b:Entity AS current")
    assert all(r["current"] for r in stored), [r for r in stored if not r["current"]][:5]

    def keyed(rows: list[dict[str, Any]]) -> dict[tuple, tuple]:
        return {(r["s"], r["o"], r["p"]): (list(r["ids"]), round(r["w"], 9)) for r in rows}

    want, have = keyed(derived), keyed(stored)
    assert len(stored) == len(have) and have == want, \
        {k: (have.get(k), want.get(k)) for k in sorted(set(have) | set(want)) if have.get(k) != want.get(k)}


def assert_decisions_recorded(db: Database) -> None:
    """Invariant 3: every REFERS_TO says who decided, when, how confident, in which run, and why."""
    bad = db.run("MATCH (:Mention)-[r:REFERS_TO]->() WHERE r.decided_by IS NULL OR r.decided_at IS NULL "
                 "OR r.confidence IS NULL OR r.run_id IS NULL OR r.evidence IS NULL OR r.method IS NULL "
                 "RETURN count(r) AS n")[0]["n"]
    assert bad == 0


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return path


def free_port() -> int:
    """A TCP port nothing listens on right now (for servers the tests start)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def contexts(db: Database) -> dict[str, list[float] | None]:
    """Every entity's context embedding (None where it has none), by id."""
    return {r["id"]: r["v"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id, e.context_embedding AS v")}


def assert_contexts_current(db: Database) -> None:
    """Every entity's context embedding is what a whole recompute over the graph as it is now gives
    (within float noise). Leaves the recomputed ones in place."""
    import numpy as np

    from kgres.resolve.embed import structural  # the encoder stack: only for the tests that embed

    kept = contexts(db)
    structural(db, 128, 42, topology=False)
    whole = contexts(db)
    assert kept.keys() == whole.keys()
    stale = [i for i in whole if (kept[i] is None) != (whole[i] is None)
             or (whole[i] is not None and np.abs(np.subtract(kept[i], whole[i])).max() > 1e-6)]
    assert not stale, f"{len(stale)} of {len(whole)} context embeddings describe another graph: {stale[:5]}"
