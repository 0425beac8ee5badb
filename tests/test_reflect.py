"""Triple reflection and description summaries over real HTTP (scripted local server), on the real
database: filtered triples leave projections but stay in the database, scores survive merges."""

from __future__ import annotations

import json
import re

from kgres import ingest
from kgres.resolve import merge
from kgres.llm import LLMSettings, client
from kgres.llm.reflect import reflect
from kgres.report import components, report
from kgres.resolve import ResolveConfig, resolve
from kgres.llm.summarize import summarize
from kgres.resolve.embed import embed
from tests.graphs import assert_contexts_current, write_jsonl
from tests.openai_server import OpenAIServer

# The graph these tests were written on: the rule scorer's known merges (the resolver is not under test).
RULES = ResolveConfig(strategy="rules")

RECS = [{"kind": "chunk", "id": "c1", "text": "Mr. Sherlock Holmes lived at Baker Street. Holmes played the violin."},
        {"kind": "mention", "id": "s1", "name": "Sherlock Holmes", "type": "PERSON", "chunk_id": "c1",
         "description": "A consulting detective of London who solves cases nobody else can."},
        {"kind": "mention", "id": "s2", "name": "Mr. Sherlock Holmes", "type": "PERSON", "chunk_id": "c1",
         "description": "Lives at 221B Baker Street with Dr. Watson and plays the violin at night."},
        {"kind": "mention", "id": "b1", "name": "Baker Street", "type": "GEO", "chunk_id": "c1"},
        {"kind": "mention", "id": "v1", "name": "violin", "type": "OBJECT", "chunk_id": "c1"},
        {"kind": "triple", "id": "t1", "subject": "s1", "predicate": "LIVES_AT", "object": "b1", "chunk_id": "c1"},
        {"kind": "triple", "id": "t2", "subject": "s2", "predicate": "PLAYS", "object": "v1", "chunk_id": "c1"},
        {"kind": "triple", "id": "t3", "subject": "b1", "predicate": "IS_MARRIED_TO", "object": "v1", "chunk_id": "c1"}]


def scored(body) -> str:
    prompt = body["messages"][1]["content"]
    score = 0.05 if "IS_MARRIED_TO" in prompt else 0.9
    return json.dumps({"score": score, "analysis": "a street cannot marry a violin" if score < 0.2 else "plausible"})


def llm_for(db, server, **kw):
    return client(db, LLMSettings(model="test-model", base_url=server.base_url, **kw))


def test_reflection_filters_without_deleting_and_scores_survive_merges(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "r.jsonl", RECS))
    embed(db)
    before = components(db, "mentions").relations
    with OpenAIServer() as server:
        server.chat = scored
        stats = reflect(db, llm_for(db, server))
        assert (stats.triples, stats.scored, stats.filtered) == (3, 3, 1)
        assert_contexts_current(db)  # the street and the violin are no longer each other's neighbours
        again = reflect(db, llm_for(db, server))                       # nothing new to score
        assert again.triples == 0 and len(server.requests) == 3
    t3 = db.run("MATCH ()-[t:RELATES {id: 'jsonl:t3'}]->() RETURN t.status AS s, t.reflection_score AS score, "
                "t.filtered_by AS by, t.reflection_analysis AS why")
    assert t3 == [{"s": "filtered", "score": 0.05, "by": "llm:test-model", "why": "a street cannot marry a violin"}]
    assert db.run("MATCH ()-[r:RELATED {predicate: 'IS_MARRIED_TO'}]->() RETURN count(r) AS n")[0]["n"] == 0
    assert components(db, "mentions").relations == before - 1          # out of GDS projections
    rep = report(db)
    assert sum(rep.reflection_histogram) == 3 and rep.reflection_histogram[0] == 1
    assert [(f["subject"], f["predicate"]) for f in rep.filtered_triples] == [("Baker Street", "IS_MARRIED_TO")]
    run = resolve(db, RULES)
    assert db.run("MATCH ()-[t:RELATES]->() WHERE t.reflection_score IS NOT NULL RETURN count(t) AS n")[0]["n"] == 3
    merge.rollback(db, run.run_id)
    assert db.run("MATCH ()-[t:RELATES {status: 'filtered'}]->() RETURN count(t) AS n")[0]["n"] == 1
    assert db.run("MATCH ()-[r:RELATED {predicate: 'IS_MARRIED_TO'}]->() RETURN count(r) AS n")[0]["n"] == 0


def test_reflection_failures_leave_triples_unscored_and_active(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "r.jsonl", RECS))
    with OpenAIServer() as server:
        server.chat = lambda body: "I think it's fine?"
        stats = reflect(db, llm_for(db, server, max_retries=0))
    assert (stats.scored, stats.failed, stats.filtered) == (0, 3, 0)
    assert db.run("MATCH ()-[t:RELATES {status: 'active'}]->() RETURN count(t) AS n")[0]["n"] == 3


def test_summaries_for_long_merged_descriptions_only_once(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "r.jsonl", RECS))
    resolve(db, RULES)
    with OpenAIServer() as server:
        server.chat = lambda body: '{"summary": "A London consulting detective living at 221B Baker Street."}'
        stats = summarize(db, llm_for(db, server), budget_tokens=30)   # 120 characters
        assert (stats.entities, stats.summarized) == (1, 1)
        assert summarize(db, llm_for(db, server), budget_tokens=30).usage.calls == 0   # unchanged: no call
        assert len(server.requests) == 1
    row = db.run("MATCH (e:Entity) WHERE e.summary IS NOT NULL RETURN e.name AS n, e.summary_model AS m")
    assert row == [{"n": "Sherlock Holmes", "m": "test-model"}]
    kept = db.run("MATCH (m:Mention {source_key: 's2'}) RETURN m.description AS d")[0]["d"]
    assert kept.startswith("Lives at 221B")                            # originals stay on the mentions


def test_cli_reflect_and_summarize(db, neo4j_env, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "r.jsonl", RECS))
    monkeypatch.delenv("KGRES_LLM_MODEL", raising=False)
    out = CliRunner().invoke(main, ["reflect"], catch_exceptions=False)
    assert out.exit_code == 0 and "reflect skipped" in out.stderr
    with OpenAIServer() as server:
        server.chat = scored
        monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        out = CliRunner().invoke(main, ["reflect", "--json"], catch_exceptions=False)
        assert out.exit_code == 0 and json.loads(out.stdout)["filtered"] == 1
        assert re.search(r"^ask  \d+ triples in \d+\.\d s", out.stderr, re.MULTILINE), out.stderr
        out = CliRunner().invoke(main, ["summarize", "--json"], catch_exceptions=False)
        assert out.exit_code == 0 and json.loads(out.stdout)["summarized"] == 0
