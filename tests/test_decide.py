"""Human decisions: review lists what rules could not settle; accept merges (undoably); reject binds."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgres import ingest
from kgres.resolve import merge
from kgres.cli import main
from kgres.curate.review import decide, review
from kgres.errors import KgresError
from kgres.resolve import ResolveConfig, resolve
from tests.graphs import (assert_aggregates_current, assert_one_refers_to_per_mention, assert_related_derived,
                          graph_state, snapshot, write_jsonl)

# The graph these tests were written on: the rule scorer's known merges (the resolver is not under test).
RULES = ResolveConfig(strategy="rules")

RECS = [{"kind": "mention", "id": "a1", "name": "Acme Corp.", "type": "ORGANIZATION"},
        {"kind": "mention", "id": "a2", "name": "ACME Corporation", "type": "ORGANIZATION"},
        {"kind": "mention", "id": "s1", "name": "Sherlock Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "s2", "name": "Mr. Sherlock Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "h1", "name": "Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "h2", "name": "Holmes", "type": "PERSON"}]


@pytest.fixture
def graph(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "d.jsonl", RECS))
    return db


def test_review_lists_the_pair_rules_left_open_and_accept_merges_it(graph):
    db = graph
    resolve(db, RULES)
    pairs = review(db)
    acme = [p for p in pairs if {p.a_name, p.b_name} == {"Acme Corp.", "ACME Corporation"}]
    assert len(acme) == 1 and 0.6 <= acme[0].score < 0.88
    before = snapshot(db)
    d = decide(db, "accept", "Acme Corp.", "ACME Corporation", reason="same company", decided_by="human:test")
    rows = db.run("MATCH (m:Mention)-[r:REFERS_TO]->(e:Entity) WHERE m.source_key IN ['a1', 'a2'] "
                  "RETURN DISTINCT e.id AS e, collect(r.method) AS methods, collect(r.decided_by) AS who")
    assert len(rows) == 1 and "human" in rows[0]["methods"] and "human:test" in rows[0]["who"]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert not [p for p in review(db) if "Acme Corp." in (p.a_name, p.b_name)]
    merge.rollback(db, d.run_id)
    nodes, rels = snapshot(db)
    assert graph_state((nodes, []))[0] == graph_state((before[0], []))[0]


def test_reject_binds_every_later_run(graph):
    db = graph
    decide(db, "reject", "Sherlock Holmes", "Mr. Sherlock Holmes", reason="father and son")
    resolve(db, RULES)
    ids = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e) WHERE m.source_key IN ['s1', 's2'] RETURN DISTINCT e.id AS e")
    assert len(ids) == 2
    rejected = db.run("MATCH ()-[n:NOT_SAME_AS]->() RETURN n.reason AS r, n.decided_by AS who")
    assert rejected[0]["r"] == "father and son" and rejected[0]["who"].startswith("human:")


def test_decide_errors(graph):
    db = graph
    with pytest.raises(KgresError, match="no entity with id or name 'Nobody'"):
        decide(db, "accept", "Nobody", "Holmes")
    with pytest.raises(KgresError, match="'Holmes' names 2 entities"):
        decide(db, "reject", "Holmes", "Sherlock Holmes")
    with pytest.raises(KgresError, match="already one entity"):
        decide(db, "reject", "ent:jsonl:s1", "Sherlock Holmes")
    decide(db, "reject", "ent:jsonl:h1", "Sherlock Holmes")
    with pytest.raises(KgresError, match="NOT_SAME_AS"):
        decide(db, "accept", "ent:jsonl:h1", "Sherlock Holmes")


def test_cli_review_and_decide(graph, neo4j_env):
    resolve(graph, RULES)
    run = CliRunner()
    out = run.invoke(main, ["review", "--json"], catch_exceptions=False)
    assert out.exit_code == 0 and any(p["a_name"] in ("Acme Corp.", "ACME Corporation") for p in json.loads(out.output))
    out = run.invoke(main, ["decide", "reject", "Acme Corp.", "ACME Corporation", "--reason", "rivals", "--json"])
    assert out.exit_code == 0 and json.loads(out.output)["decision"] == "reject"
    assert run.invoke(main, ["decide", "accept", "Acme Corp.", "ACME Corporation"]).exit_code == 1


def test_an_accept_killed_between_its_merge_and_its_refresh_is_finished_by_the_next_writer(db, tmp_path,
                                                                                            monkeypatch):
    """The merge committed, the aggregates not yet: the run stayed 'running' and nothing resumed it.
    Its recorded merge plan now lets the next decide (or resolve) finish it."""
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", [
        {"kind": "mention", "id": "a", "name": "Ada Lovelace", "type": "PERSON"},
        {"kind": "mention", "id": "b", "name": "Countess of Lovelace", "type": "PERSON"},
        {"kind": "mention", "id": "c", "name": "Charles Babbage", "type": "PERSON"},
        {"kind": "mention", "id": "d", "name": "C. Babbage", "type": "PERSON"}]))

    class Killed(Exception):
        pass

    write = type(db).write

    def killed(self, name, **params):
        if name == "resolve_merge_refresh":
            raise Killed()
        return write(self, name, **params)

    monkeypatch.setattr(type(db), "write", killed)
    with pytest.raises(Killed):
        decide(db, "accept", "Ada Lovelace", "Countess of Lovelace")
    monkeypatch.undo()
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 1
    decide(db, "accept", "Charles Babbage", "C. Babbage")
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 0
    assert db.run("MATCH (p:MergePlan) RETURN count(p) AS n")[0]["n"] == 0
    assert db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"] == 2
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_related_derived(db)


def test_the_review_queue_lists_a_pair_while_its_newest_verdict_is_review(db):
    """A pair an earlier pass left in review and a later pass rejected leaves the queue; one a later
    pass moved into review joins it. The CLI's review list and the console's queue both follow it."""
    from kgres.console import queue

    db.run("""CREATE (:Entity {id: 'a', name: 'Ada Byron'}), (:Entity {id: 'b', name: 'A. Byron'}),
                     (:Entity {id: 'c', name: 'Lord Byron'}), (:Entity {id: 'd', name: 'Byron'})""")
    for a, b, run, band in (("a", "b", "run-1.9", "review"), ("a", "b", "run-1.10", "reject"),
                            ("c", "d", "run-1.9", "reject"), ("c", "d", "run-1.10", "review")):
        db.run("MATCH (a:Entity {id: $a}), (b:Entity {id: $b}) "
               "CREATE (a)-[:CANDIDATE {run_id: $run, band: $band, score: 0.5, signals_json: '{}'}]->(b)",
               a=a, b=b, run=run, band=band)
    assert [(p.a_name, p.b_name, p.run_id) for p in review(db)] == [("Lord Byron", "Byron", "run-1.10")]
    assert [(p.a_name, p.b_name) for p in queue(db).items] == [("Lord Byron", "Byron")]
