"""The LLM judge over real HTTP against a local OpenAI-compatible server with scripted answers:
correct JSON, malformed JSON, refusals, a 429 with Retry-After, a timeout, a server that is down,
budgets and the answer cache. No merge ever happens on a failure."""

from __future__ import annotations

import json
import re

import pytest

from kgres import ingest
from kgres.llm.judge import judge
from kgres.llm import LLMError, LLMSettings, client, parse
from kgres.progress import Progress
from kgres.resolve import ResolveConfig, resolve
from tests.graphs import (assert_aggregates_current, assert_decisions_recorded,
                          assert_one_refers_to_per_mention, write_jsonl)
from tests.openai_server import OpenAIServer

# The graph these tests were written on: the rule scorer's known merges (the resolver is not under test).
RULES = ResolveConfig(strategy="rules")

RECS = [{"kind": "chunk", "id": "c1", "text": "Acme Corp. makes anvils. ACME Corporation ships them."},
        {"kind": "chunk", "id": "c2", "text": "The Baker Street Irregulars ran along Baker Street."},
        {"kind": "mention", "id": "a1", "name": "Acme Corp.", "type": "ORGANIZATION", "chunk_id": "c1"},
        {"kind": "mention", "id": "a2", "name": "ACME Corporation", "type": "ORGANIZATION", "chunk_id": "c1"},
        {"kind": "mention", "id": "b1", "name": "Baker Street", "type": "ORGANIZATION", "chunk_id": "c2"},
        {"kind": "mention", "id": "b2", "name": "Baker Street Irregulars", "type": "ORGANIZATION", "chunk_id": "c2"}]


def script(body) -> str:
    prompt = body["messages"][1]["content"]
    if "Irregulars" in prompt:
        return '{"decision": "different", "confidence": 0.9, "evidence": ["a street is not a gang of boys"]}'
    return '{"decision": "same", "confidence": 0.95, "evidence": ["Corp. abbreviates Corporation"]}'


@pytest.fixture
def graph(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "j.jsonl", RECS))
    resolve(db, RULES)
    pending = db.run("MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]->(b:Entity) RETURN a.name AS a, b.name AS b")
    assert {frozenset((p["a"], p["b"])) for p in pending} >= {frozenset(("Acme Corp.", "ACME Corporation")),
                                                              frozenset(("Baker Street", "Baker Street Irregulars"))}
    return db


def llm_for(db, server, **kw):
    return client(db, LLMSettings(model="test-model", base_url=server.base_url, **{"max_retry_wait_s": 1, **kw}))


def entity_of(db, key):
    return db.run("MATCH (:Mention {source_key: $k})-[:REFERS_TO]->(e) RETURN e.id AS e", k=key)[0]["e"]


def test_verdicts_merge_reject_and_are_recorded(graph):
    db = graph
    with OpenAIServer() as server:
        server.chat = script
        stats = judge(db, llm_for(db, server))
    assert (stats.merged, stats.rejected, stats.failed) == (1, 1, 0)
    assert entity_of(db, "a1") == entity_of(db, "a2") and entity_of(db, "b1") != entity_of(db, "b2")
    moved = db.run("MATCH (:Mention)-[r:REFERS_TO {method: 'llm'}]->() RETURN r.decided_by AS by, r.evidence AS ev")
    assert len(moved) == 1 and moved[0]["by"] == "llm:test-model" and "judge-v2" in moved[0]["ev"]
    nsa = db.run("MATCH ()-[n:NOT_SAME_AS]->() RETURN n.decided_by AS by, n.reason AS why")
    assert nsa[0]["by"] == "llm:test-model" and "gang of boys" in nsa[0]["why"]
    assert db.run("MATCH ()-[c:CANDIDATE]->() WHERE c.judge IS NOT NULL RETURN count(c) AS n")[0]["n"] >= 2
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_decisions_recorded(db)
    sent = sum(len(m["content"]) for r in server.requests for m in r["body"]["messages"])
    assert stats.usage.calls == 2 and stats.usage.prompt_tokens == pytest.approx(sent / 4, abs=2)
    assert any("Baker Street Irregulars" in json.dumps(r["body"]["messages"]) for r in server.requests)


@pytest.mark.parametrize("failure", ["malformed", "refusal", "http500", "timeout", "down"])
def test_failures_never_merge(graph, failure):
    db = graph
    with OpenAIServer() as server:
        if failure == "malformed":
            server.chat = lambda body: '{"decision": "same", "confidence": "very"'
        elif failure == "refusal":
            server.chat = lambda body: {"content": None, "refusal": "I cannot help with that."}
        elif failure == "http500":
            server.fail_next(500, "oops", times=20)
        elif failure == "timeout":
            server.delay = 2.0
        url = server.base_url
        llm = llm_for(db, server, timeout_s=0.5, max_retries=1)
        if failure == "down":
            server.__exit__()
        stats = judge(db, llm)
        if failure != "down":
            server.__exit__()
    assert url and stats.merged == 0 and stats.rejected == 0 and stats.failed == 2
    assert entity_of(db, "a1") != entity_of(db, "a2")
    assert db.run("MATCH ()-[n:NOT_SAME_AS]->() RETURN count(n) AS n")[0]["n"] == 0
    errors = db.run("MATCH ()-[c:CANDIDATE]->() WHERE c.judge CONTAINS 'error' RETURN count(c) AS n")[0]["n"]
    assert errors >= 2


def test_429_with_retry_after_is_retried(graph):
    db = graph
    with OpenAIServer() as server:
        server.chat = script
        server.fail_next(429, '{"error": {"message": "slow down"}}', {"Retry-After": "0"})
        stats = judge(db, llm_for(db, server, concurrency=1))
        assert len(server.requests) == 3                                # one refused, two answered
    assert stats.merged == 1 and stats.failed == 0


def test_budget_stops_cleanly_and_the_cache_makes_reruns_free(graph):
    db = graph
    with OpenAIServer() as server:
        server.chat = lambda body: '{"decision": "unsure", "confidence": 0.4, "evidence": ["cannot tell"]}'
        first = judge(db, llm_for(db, server, max_calls=1, concurrency=1))
        assert first.stopped_by_budget and first.usage.calls == 1 and first.left_in_review == 2
        second = judge(db, llm_for(db, server, concurrency=1))           # resumes: one cached, one new
        assert (second.usage.cached, second.usage.calls) == (1, 1)
        third = judge(db, llm_for(db, server))                          # everything cached now
        assert (third.usage.cached, third.usage.calls) == (2, 0) and len(server.requests) == 2
    assert entity_of(db, "a1") != entity_of(db, "a2")


def test_server_without_json_schema_and_tolerant_parsing(graph):
    db = graph
    with OpenAIServer() as server:
        server.reject_json_schema = True
        server.chat = lambda body: ("Sure! ```json\n" + script(body) + "\n```")
        stats = judge(db, llm_for(db, server, concurrency=1))
    assert stats.merged == 1 and stats.rejected == 1
    with pytest.raises(LLMError, match="malformed answer"):
        from kgres.llm.judge import JudgeVerdict as Verdict
        parse("no json here", Verdict)


class Counted(Progress):
    """Records each stage with the units it expected and those it was told were done."""

    def __init__(self) -> None:
        super().__init__()
        self.stages: list[list] = []  # [name, expected, unit, done]

    def stage(self, name: str) -> None:
        self.stages.append([name, None, "", 0])

    def expect(self, total, unit: str) -> None:
        self.stages[-1][1:3] = [total, unit]

    def advance(self, n: int) -> None:
        self.stages[-1][3] += n


def test_judge_counts_each_pair_as_its_answer_comes_back_failed_or_not(graph):
    db = graph
    counted = Counted()
    with OpenAIServer() as server:
        server.chat = lambda body: "no json" if "Irregulars" in body["messages"][1]["content"] else script(body)
        stats = judge(db, llm_for(db, server, max_retries=0), on_step=counted)
    assert (stats.merged, stats.failed) == (1, 1)
    assert counted.stages == [["ask", 2, "pairs", 2], ["decide", 2, "pairs", 2]]


def test_a_spent_budget_still_counts_every_pair(graph):
    db = graph
    counted = Counted()
    with OpenAIServer() as server:
        server.chat = script
        stats = judge(db, llm_for(db, server, max_calls=1, concurrency=1), on_step=counted)
    assert stats.stopped_by_budget and counted.stages[0] == ["ask", 2, "pairs", 2]


def test_cli_judge_skips_without_a_model_and_runs_with_one(graph, neo4j_env, monkeypatch):
    from click.testing import CliRunner

    from kgres.cli import main

    monkeypatch.delenv("KGRES_LLM_MODEL", raising=False)
    out = CliRunner().invoke(main, ["judge"], catch_exceptions=False)
    assert out.exit_code == 0 and "no LLM configured" in out.stderr
    with OpenAIServer() as server:
        server.chat = script
        monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        out = CliRunner().invoke(main, ["judge", "--json"], catch_exceptions=False)
    assert out.exit_code == 0 and json.loads(out.stdout)["merged"] == 1
    # stderr says what it asked and decided, a line a stage (the answers now come from the cache)
    lines = out.stderr.splitlines()
    assert lines[0] == "judging with test-model"
    assert re.fullmatch(r"ask  2 pairs in \d+\.\d s \([\d,]+ pairs/s\)", lines[1]), lines
    assert re.match(r"decide  2 pairs in ", lines[2]), lines


HOLMES = [{"kind": "chunk", "id": "c1", "text": "Holmes played the violin at Baker Street."},
          {"kind": "chunk", "id": "c5", "text": "Holmes the elder sat all evening in the Diogenes Club."}]
HOLMES += [{"kind": "mention", "id": i, "name": n, "type": "PERSON", "chunk_id": c} for i, n, c in (
    ("s1", "Sherlock Holmes", "c1"), ("s2", "Sherlock Holmes", "c1"), ("s3", "Mr. Sherlock Holmes", "c1"),
    ("my", "Mycroft Holmes", "c5"), ("h1", "Holmes", "c1"), ("h2", "Holmes", "c5"))]


def mention_script(body) -> str:
    prompt = body["messages"][1]["content"]
    names = re.findall(r"^Candidate (\d+): (.*) \(type", prompt, re.MULTILINE)
    pick = next(n for n, name in names if name == ("Mycroft Holmes" if "elder" in prompt else "Sherlock Holmes"))
    return json.dumps({"candidate": int(pick), "confidence": 0.9, "evidence": ["the passage says so"]})


def test_the_judge_moves_a_single_mention_to_the_entity_its_passage_means(db, tmp_path):
    from kgres.resolve import merge
    from kgres.llm.judge import judge_mentions

    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "h.jsonl", HOLMES))
    resolve(db, RULES)  # Sherlock has three times Mycroft's mentions: both bare "Holmes" go to him by the prior
    assert entity_of(db, "h1") == entity_of(db, "h2") == entity_of(db, "s1")
    with OpenAIServer() as server:
        server.chat = lambda body: "not json"
        out = judge_mentions(db, llm_for(db, server, max_retries=0))
        assert out.failed == 2 and out.moved == 0 and entity_of(db, "h2") == entity_of(db, "s1")  # no move on failure
        server.chat = mention_script
        out = judge_mentions(db, llm_for(db, server))
        assert (out.mentions, out.moved, out.kept) == (2, 1, 1)
        assert judge_mentions(db, llm_for(db, server)).mentions == 0   # each mention is asked once
    assert entity_of(db, "h2") == entity_of(db, "my") and entity_of(db, "h1") == entity_of(db, "s1")
    r = db.run("MATCH (:Mention {source_key: 'h2'})-[r:REFERS_TO]->() RETURN r.method AS m, r.decided_by AS by, "
               "r.evidence AS ev, r.run_id AS run")[0]
    assert r["m"] == "llm" and r["by"] == "llm:test-model" and "judge-mention-v1" in r["ev"]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_decisions_recorded(db)
    merge.rollback(db, r["run"])                                       # undoable like any decision
    assert entity_of(db, "h2") not in (entity_of(db, "my"), entity_of(db, "s1"))
