"""Commands killed with SIGKILL at points chosen from what they have written, then run again: the end
state is what an uninterrupted command leaves, and the invariants hold (issue 19's crash test; the
tally over many random kills is bench/chaos.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from contextlib import contextmanager

import pytest
from click.testing import CliRunner

from kgres import ingest, schema
from kgres.cli import main
from kgres.config import load_settings
from kgres.resolve import resolve
from tests.graphs import (assert_aggregates_current, assert_one_refers_to_per_mention, graph_state, snapshot,
                          write_jsonl)
from tests.test_resolve import fixture, groups


def kill_when(db, args: list[str], query: str, extra: float = 0.0) -> int:
    """Start ``kgres ARGS``, SIGKILL it once ``query`` (returning ``n``) is positive (plus ``extra``
    seconds); returns its exit code (negative: killed)."""
    proc = subprocess.Popen([sys.executable, "-c", "from kgres.cli import main; main()", *args],
                            env={**os.environ, "KGRES_LOCK__TTL_S": "2"},
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while proc.poll() is None and not db.run(query)[0]["n"]:
        time.sleep(0.02)
    time.sleep(extra)
    if proc.poll() is None:
        proc.send_signal(signal.SIGKILL)
    return proc.wait()


def fresh(db) -> None:
    schema.reset(db)
    schema.init(db, load_settings().schema_)


def judged_graph(db, tmp_path) -> None:
    """test_judge's graph, resolved with the rules: two pairs in review (Acme: same; Baker Street: not)."""
    from tests.test_judge import RECS, RULES

    fresh(db)
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "j.jsonl", RECS))
    resolve(db, RULES)


def judge_outcome(db) -> tuple[set, set]:
    """The groups of mentions and the pairs of names kept apart by NOT_SAME_AS."""
    apart = db.run("MATCH (:Mention)-[:REFERS_TO]->(a:Entity)-[:NOT_SAME_AS]-(b:Entity)<-[:REFERS_TO]-(:Mention) "
                   "RETURN DISTINCT a.name AS a, b.name AS b")
    return groups(db), {frozenset((r["a"], r["b"])) for r in apart}


@contextmanager
def entities_held(db, names: list[str]):
    """An open transaction that has written to the entities named ``names``: a command that writes to
    them waits on their locks until the block ends (the transaction is rolled back)."""
    with db._driver.session(database=db.target.database) as session:
        holder = session.begin_transaction()
        holder.run("MATCH (e:Entity) WHERE e.name IN $names SET e.held = true", names=names)
        try:
            yield
        finally:
            holder.rollback()


@pytest.mark.parametrize("moment", ["MATCH (r:ResolutionRun) RETURN count(r) >= 2 AS n",
                                    "MATCH (p:MergePlan) RETURN count(p) AS n"])
def test_a_killed_resolve_rerun_ends_as_an_uninterrupted_one(db, neo4j_env, tmp_path, monkeypatch, moment):
    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    uninterrupted = groups(db)
    fresh(db)
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    assert kill_when(db, ["resolve"], moment) == -signal.SIGKILL
    # the rerun resumes the killed pass (finishing its recorded merges) and goes on to the fixed point
    rerun = CliRunner().invoke(main, ["resolve", "--json"], catch_exceptions=False)
    assert rerun.exit_code == 0
    assert groups(db) == uninterrupted
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 0
    assert db.run("MATCH (p:MergePlan) RETURN count(p) AS n")[0]["n"] == 0
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_a_killed_ingest_is_finished_by_a_rerun_or_removed_by_a_rollback(db, neo4j_env, tmp_path, monkeypatch):
    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(40)]
    recs += [{"kind": "mention", "id": f"m{i}", "name": f"Person {i}", "type": "PERSON", "chunk_id": f"c{i % 40}"}
             for i in range(400)]
    recs += [{"kind": "triple", "subject": f"m{i}", "predicate": "KNOWS", "object": f"m{i + 1}"} for i in range(399)]
    path = write_jsonl(tmp_path / "big.jsonl", recs)
    ingest.ingest(db, "jsonl", path)
    uninterrupted = graph_state(snapshot(db, keep_volatile=False))
    fresh(db)
    code = kill_when(db, ["ingest", "jsonl", str(path), "--batch-size", "5"],
                     "MATCH (m:Mention) RETURN count(m) >= 100 AS n")
    assert code == -signal.SIGKILL  # killed mid-way through the mentions
    run_id = db.run("MATCH (r:IngestRun) RETURN r.id AS id, r.status AS s")[0]
    assert run_id["s"] == "running"
    rerun = CliRunner().invoke(main, ["ingest", "jsonl", str(path)], catch_exceptions=False)
    assert rerun.exit_code == 0
    assert graph_state(snapshot(db, keep_volatile=False)) == uninterrupted
    # killed again, the import is removed instead of finished: nothing of it is left
    fresh(db)
    assert kill_when(db, ["ingest", "jsonl", str(path), "--batch-size", "5"],
                     "MATCH (m:Mention) RETURN count(m) >= 100 AS n") == -signal.SIGKILL
    undone = CliRunner().invoke(main, ["rollback", run_id["id"], "--json"], catch_exceptions=False)
    assert undone.exit_code == 0, undone.output
    assert db.run("MATCH (n) WHERE NOT n:IngestRun AND NOT n:WriterLock RETURN count(n) AS n")[0]["n"] == 0


def test_a_killed_judge_rerun_ends_as_an_uninterrupted_one(db, neo4j_env, tmp_path, monkeypatch):
    """``kgres judge`` killed while it waits for its second answer (the first is cached): the rerun
    asks only what is unanswered and ends with the merges and rejections of an uninterrupted judge."""
    import threading

    from kgres.llm import LLMSettings, client
    from kgres.llm.judge import judge
    from tests.openai_server import OpenAIServer
    from tests.test_judge import script

    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    judged_graph(db, tmp_path)
    with OpenAIServer() as server:
        server.chat = script
        stats = judge(db, client(db, LLMSettings(model="test-model", base_url=server.base_url)))
    assert (stats.merged, stats.rejected) == (1, 1)
    uninterrupted = judge_outcome(db)

    judged_graph(db, tmp_path)
    release, answered = threading.Event(), []

    def second_waits(body):
        answered.append(body)
        if len(answered) > 1:
            release.wait(30)
        return script(body)

    with OpenAIServer() as server:
        server.chat = second_waits
        monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        code = kill_when(db, ["judge"], "MATCH (a:LLMAnswer) RETURN count(a) AS n")
        release.set()
        assert code == -signal.SIGKILL
        assert db.run("MATCH ()-[n:NOT_SAME_AS]->() RETURN count(n) AS n")[0]["n"] == 0  # nothing decided yet
        rerun = CliRunner().invoke(main, ["judge", "--json"], catch_exceptions=False)
    assert rerun.exit_code == 0, rerun.output
    assert judge_outcome(db) == uninterrupted
    assert len(server.requests) == 3  # the killed run's two, and only the unanswered one again
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_a_judge_killed_between_two_decisions_rerun_ends_as_an_uninterrupted_one(db, neo4j_env, tmp_path,
                                                                                 monkeypatch):
    """``kgres judge`` killed after its first decision (the accept, a merge) while its second (the
    reject) waits on the database: the rerun asks nothing again (both answers are cached) and ends with the
    merges and rejections of an uninterrupted judge."""
    from tests.openai_server import OpenAIServer
    from tests.test_judge import script

    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
    with OpenAIServer() as server:
        server.chat = script
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        judged_graph(db, tmp_path)
        assert CliRunner().invoke(main, ["judge", "--json"], catch_exceptions=False).exit_code == 0
        uninterrupted = judge_outcome(db)
        assert len(uninterrupted[1]) == 1 and len(server.requests) == 2

        judged_graph(db, tmp_path)
        # The reject's entities are held by an open transaction of this test: the judge makes its
        # accept, then waits on the lock inside the reject, and is killed there.
        with entities_held(db, ["Baker Street", "Baker Street Irregulars"]):
            code = kill_when(db, ["judge"], "MATCH (r:ResolutionRun {strategy: 'llm', status: 'done'}) "
                                            "RETURN count(r) AS n", extra=1.0)
        assert code == -signal.SIGKILL
        # the first decision was made, the second was not
        assert db.run("MATCH (e:Entity) WHERE e.name IN ['Acme Corp.', 'ACME Corporation'] "
                      "RETURN count(e) AS n")[0]["n"] == 1
        assert judge_outcome(db)[1] == set()
        rerun = CliRunner().invoke(main, ["judge", "--json"], catch_exceptions=False)
    assert rerun.exit_code == 0, rerun.output
    assert judge_outcome(db) == uninterrupted
    assert len(server.requests) == 4  # the uninterrupted judge's two and the killed one's two; none again
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_a_mention_judge_killed_between_split_and_merge_rerun_finishes_the_move(db, neo4j_env, tmp_path,
                                                                               monkeypatch):
    """``kgres judge --mentions`` killed after it split "Holmes" (of the elder's passage) off Sherlock
    and before it merged it into Mycroft (whose entity a transaction of this test holds): the rerun
    finishes the recorded move, so the mentions end where an uninterrupted judge puts them, with every
    aggregate current (the split's entities were marked :Stale with the split)."""
    from tests.openai_server import OpenAIServer
    from tests.test_judge import HOLMES, RULES, mention_script

    def holmes_graph() -> None:
        fresh(db)
        ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "h.jsonl", HOLMES))
        resolve(db, RULES)

    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")
    monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
    with OpenAIServer() as server:
        server.chat = mention_script
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        holmes_graph()
        assert CliRunner().invoke(main, ["judge", "--mentions"], catch_exceptions=False).exit_code == 0
        uninterrupted = groups(db)

        holmes_graph()
        with entities_held(db, ["Mycroft Holmes"]):
            code = kill_when(db, ["judge", "--mentions"], "MATCH ()-[n:NOT_SAME_AS]->() RETURN count(n) AS n",
                             extra=1.0)
        assert code == -signal.SIGKILL
        assert groups(db) != uninterrupted  # split off, not merged yet
        assert db.run("MATCH (m:Mention {relink_pending: true}) RETURN count(m) AS n")[0]["n"] == 1
        rerun = CliRunner().invoke(main, ["judge", "--mentions", "--json"], catch_exceptions=False)
    assert rerun.exit_code == 0, rerun.output
    assert groups(db) == uninterrupted
    assert db.run("MATCH (m:Mention {relink_pending: true}) RETURN count(m) AS n")[0]["n"] == 0
    assert db.run("MATCH (e:Stale) RETURN count(e) AS n")[0]["n"] == 0
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
