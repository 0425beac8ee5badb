"""``block`` against the real database: what each strategy proposes, and that it does not depend on
the full-text index's history."""

from __future__ import annotations

from kgres.block import BlockConfig, block


def _lexical_pairs(db, run_id: str) -> set[tuple[str, str]]:
    rows = db.run("MATCH (a:Entity)-[c:CANDIDATE {run_id: $run}]->(b:Entity) "
                  "WHERE 'lexical' IN c.methods RETURN a.id AS a, b.id AS b", run=run_id)
    return {(r["a"], r["b"]) for r in rows}


def _entities(db, rows: list[tuple[str, str]]) -> None:
    db.run("UNWIND $rows AS row CREATE (:Entity {id: row[0], name: row[1], aliases: [row[1]], "
           "search_key: row[1], type: 'PERSON'})", rows=rows)


def test_lexical_pairs_ignore_deleted_entities_still_counted_by_the_index(db):
    # "holmes" is rarer than "baker" among live entities, so e1 ("holmes baker") pairs with e2
    # ("holmes") at k=1. Thirty deleted "holmes" entities stay in Lucene's BM25 statistics until a
    # segment merge nobody schedules; counted, they make "baker" the rarer word and e1 would pair with
    # a1 instead, on some runs and not others.
    _entities(db, [("a1", "baker lane"), ("a2", "baker row"), ("a3", "baker street"),
                   ("e1", "holmes baker"), ("e2", "holmes")])
    _entities(db, [(f"gone{i:02d}", f"holmes gone{i:02d}") for i in range(30)])
    db.run("MATCH (e:Entity) WHERE e.id STARTS WITH 'gone' DETACH DELETE e")

    block(db, "r1", BlockConfig(strategies=("lexical",), k=1))

    assert _lexical_pairs(db, "r1") == {("a1", "a2"), ("a1", "a3"), ("e1", "e2")}
