"""Retrieval from the real database: every mode finds what only resolution joins, filtered triples
never appear, the HTTP API answers and refuses clearly, and the Cypher files run from plain Cypher."""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from kgres import ingest
from kgres.db import cypher
from kgres.errors import ConfigError
from kgres.resolve.merge import refresh
from kgres.resolve import ResolveConfig, resolve
from kgres.retrieve import RetrieveConfig, Retriever
from kgres.evaluate.synth import generate
from tests.graphs import free_port, write_jsonl

# The graph these tests were written on: the rule scorer's known merges (the resolver is not under test).
RULES = ResolveConfig(strategy="rules")

# The Baker Street lodger: chunk c1 says who lodges at Baker Street (as "Sherlock Holmes"), chunk c2
# what he plays (as "Mr. Holmes"). Only resolution joins the two, so only then does a question
# about the lodger's instrument reach c2. A second, unrelated household gives the modes a choice.
CHUNKS = {"c1": "Sherlock Holmes lodges at 221B Baker Street with Dr. Watson.",
          "c2": "Mr. Holmes played the violin late into the night.",
          "c3": "Sherlock Holmes kept his tobacco in a Persian slipper.",
          "c4": "Mycroft Holmes spent his evenings at the Diogenes Club in Pall Mall.",
          "c5": "The Diogenes Club forbids talking."}
MENTIONS = [("s1", "Sherlock Holmes", "PERSON", "c1"), ("b1", "Baker Street", "GEO", "c1"),
            ("w1", "Dr. Watson", "PERSON", "c1"), ("s2", "Mr. Holmes", "PERSON", "c2"),
            ("v1", "violin", "INSTRUMENT", "c2"), ("s3", "Sherlock Holmes", "PERSON", "c3"),
            ("p1", "Persian slipper", "OBJECT", "c3"), ("m1", "Mycroft Holmes", "PERSON", "c4"),
            ("d1", "Diogenes Club", "ORGANIZATION", "c4"), ("pm", "Pall Mall", "GEO", "c4"),
            ("d2", "Diogenes Club", "ORGANIZATION", "c5"), ("t1", "talking", "CONCEPT", "c5")]
TRIPLES = [("t-lodges", "s1", "LODGES_AT", "b1", "c1", "Holmes lodges at 221B Baker Street."),
           ("t-watson", "s1", "SHARES_ROOMS_WITH", "w1", "c1", "Holmes shares rooms with Watson."),
           ("t-violin", "s2", "PLAYS", "v1", "c2", "Holmes plays the violin."),
           ("t-slipper", "s3", "KEEPS_TOBACCO_IN", "p1", "c3", "Holmes keeps tobacco in a slipper."),
           ("t-club", "m1", "MEMBER_OF", "d1", "c4", "Mycroft is a member of the Diogenes Club."),
           ("t-mall", "d1", "LOCATED_IN", "pm", "c4", "The club is in Pall Mall."),
           ("t-talk", "d2", "FORBIDS", "t1", "c5", "The club forbids talking.")]
QUESTION = "Which instrument does the Baker Street lodger play?"


def lodger(tmp_path: Path) -> Path:
    recs = [{"kind": "chunk", "id": c, "document_id": "d", "text": t} for c, t in CHUNKS.items()]
    recs += [{"kind": "mention", "id": i, "name": n, "type": ty, "chunk_id": c} for i, n, ty, c in MENTIONS]
    recs += [{"kind": "triple", "id": i, "subject": s, "predicate": p, "object": o, "chunk_id": c, "description": d}
             for i, s, p, o, c, d in TRIPLES]
    return write_jsonl(tmp_path / "lodger.jsonl", recs)


@pytest.fixture
def resolved(db, tmp_path):
    ingest.ingest(db, "jsonl", lodger(tmp_path))
    resolve(db, RULES)
    return db


def names(ctx) -> set[str]:
    return {e["name"] for e in ctx.entities}


def chunk_ids(ctx) -> set[str]:
    return {c["id"] for c in ctx.chunks}


def test_local_mode_reaches_what_only_resolution_joins(resolved):
    r = Retriever(resolved)
    after = r.retrieve(QUESTION, k=1, hops=2)
    assert after.entities[0]["name"] == "Baker Street"                         # the seed
    assert {"Sherlock Holmes", "violin"} <= names(after)
    assert "jsonl:c2" in chunk_ids(after)                                     # the violin passage
    sherlock = next(e for e in after.entities if e["name"] == "Sherlock Holmes")
    assert {a["alias"] for a in sherlock["alias_trail"]} >= {"Sherlock Holmes", "Mr. Holmes"}
    assert any(a["method"] == "rules" and a["run_id"] for a in sherlock["alias_trail"])
    plays = [x for x in after.relations if x["predicate"] == "PLAYS"]
    assert plays and plays[0]["descriptions"] == ["Holmes plays the violin."]
    before = r.retrieve(QUESTION, layer="mentions", k=1, hops=2)              # exact-string layer
    assert "violin" not in names(before) and "jsonl:c2" not in chunk_ids(before)
    assert "sherlock holmes" in names(before)                                 # it got as far as the name


def test_ppr_and_community_modes(resolved):
    r = Retriever(resolved)
    ppr = r.retrieve(QUESTION, mode="ppr", k=1)
    assert ppr.entities[0]["name"] == "Baker Street" and "violin" in names(ppr)
    assert "jsonl:c2" in chunk_ids(ppr)
    assert "Diogenes Club" not in names(ppr)                                   # not reachable from the seed
    built = r.communities()
    assert built["built"] and built["communities"] >= 1
    assert r.communities()["built"] is False                                   # current: not rebuilt
    com = r.retrieve("Baker Street lodger and his violin", mode="community")
    assert com.communities and com.communities[0]["summarized_by"] == "extractive"
    top = com.communities[0]
    assert "Sherlock Holmes" in top["summary"] and top["size"] >= 3
    assert {"Sherlock Holmes", "violin"} <= names(com)


def test_ppr_reprojects_a_graph_another_process_dropped(resolved):
    """The projection's name is remembered per stamp, so a graph dropped behind the Retriever's back
    (another kgres process re-projecting) must be noticed and projected again."""
    r = Retriever(resolved)
    first = r.retrieve(QUESTION, mode="ppr", k=1)
    resolved.query("gds_drop", graph=r.projection())
    again = r.retrieve(QUESTION, mode="ppr", k=1)
    assert again.model_dump(exclude={"ms"}) == first.model_dump(exclude={"ms"})
    assert r.projection() in {x["name"] for x in resolved.query("retrieve_graphs", prefix="kgres_retrieval_")}


@pytest.mark.parametrize("procedure", [True, False], ids=["plugin", "cypher"])
def test_filtered_triples_never_appear(resolved, procedure):
    resolved.run("MATCH ()-[t:RELATES {source_key: 't-violin'}]->() SET t.status = 'filtered'")
    refresh(resolved, [r["id"] for r in resolved.run("MATCH (e:Entity) RETURN e.id AS id")])
    r = Retriever(resolved, cfg=RetrieveConfig(context_procedure=procedure))
    assert r._context_file(r.cfg) == ("retrieve_context_procedure" if procedure else "retrieve_context")
    for mode in ("local", "ppr"):
        ctx = r.retrieve(QUESTION, mode=mode, k=1, hops=2)
        assert "violin" not in names(ctx), mode
        assert not any(x["predicate"] == "PLAYS" for x in ctx.relations), mode
    before = r.retrieve("violin", layer="mentions", k=3, hops=2)
    assert not any(x["predicate"] == "PLAYS" for x in before.relations)
    assert resolved.run("MATCH ()-[t:RELATES {status: 'filtered'}]->() RETURN count(t) AS n")[0]["n"] == 1  # kept


def test_budget_and_bad_requests(resolved):
    r = Retriever(resolved)
    small = r.retrieve(QUESTION, k=3, hops=2, budget_tokens=60)
    assert small.truncated and small.tokens <= 60
    with pytest.raises(ConfigError, match="local mode only"):
        r.retrieve(QUESTION, layer="mentions", mode="ppr")
    with pytest.raises(ConfigError, match="hops"):
        r.retrieve(QUESTION, hops=9)
    with pytest.raises(ConfigError, match="empty"):
        r.retrieve("   ")


def test_the_cypher_files_run_from_plain_cypher(resolved, neo4j_target):
    """What a user would paste into Cypher Shell: the seed and expansion files, with parameters."""
    from neo4j import GraphDatabase

    vector = Retriever(resolved).encode(QUESTION)
    with GraphDatabase.driver(neo4j_target.uri, auth=(neo4j_target.user, neo4j_target.password or "")) as driver:
        with driver.session(database=neo4j_target.database) as s:
            seeds = s.run(cypher.load("retrieve_seeds"), vector=vector, k=1).data()
            local = s.run(cypher.load("retrieve_local"), vector=vector, k=1, hops=2, limit=10).single()
            assert [x["id"] for x in local["seeds"]] == local["ids"][:1] == [seeds[0]["id"]]
            assert len(local["weights"]) == len(local["ids"]) > 1
            params = dict(relations=10, chunks=3, chars=100)
            ctx = s.run(cypher.load("retrieve_context"), ids=local["ids"], weights=local["weights"], **params).single()
            # retrieval runs the two as one statement: the same context
            chained = s.run(cypher.chain("retrieve_local", "retrieve_context", ("ids", "weights")), vector=vector,
                            k=1, hops=2, limit=10, **params).single()
            # the plugin's procedure, as retrieval calls it when the server has it
            proc = s.run(cypher.load("retrieve_context_procedure"), ids=local["ids"], weights=local["weights"],
                         **params).single()
    assert {e["name"] for e in ctx["entities"]} >= {"Baker Street", "Sherlock Holmes", "violin"}
    assert chained.data() == ctx.data() == proc.data()


def test_the_plugin_procedure_gives_the_cypher_files_context(db, tmp_path):
    """kgres.retrieve.context against retrieve_context.cypher on a resolved generated graph with
    filtered triples: the whole context, in order, for every mode and for tight limits."""
    generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 1500, seed=11)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    resolve(db, RULES)
    db.run("MATCH ()-[t:RELATES]->() WITH t ORDER BY t.id SKIP 3 LIMIT 40 SET t.status = 'filtered'")
    refresh(db, [r["id"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id")])
    names_ = [r["n"] for r in db.run("MATCH (e:Entity) WHERE e.mention_count >= 2 RETURN e.name AS n "
                                     "ORDER BY e.id LIMIT 12")]
    plugin, plain = Retriever(db), Retriever(db, cfg=RetrieveConfig(context_procedure=False))
    assert plugin._context_file(plugin.cfg) == "retrieve_context_procedure"
    assert db.read("retrieve_has_procedure", procedure="kgres.retrieve.nothing") == []  # what an old plugin says
    compared, seen = 0, {}
    for i, name in enumerate(names_):
        q = f"What does {name} do?"
        for opts in ({"mode": "local", "hops": 1 + i % 2}, {"mode": "ppr"},
                     {"mode": "local", "relations": 2, "chunks": 1, "chunk_chars": 50}):
            a, b = plugin.retrieve(q, **opts), plain.retrieve(q, **opts)
            assert a.model_dump(exclude={"ms"}) == b.model_dump(exclude={"ms"}), (q, opts)
            compared += bool(a.chunks) + any(len(x["descriptions"]) > 1 for x in a.relations)
            seen[q, tuple(opts.items())] = a.model_dump(exclude={"ms"})
    assert compared > 30  # the comparisons saw chunks and relations with several descriptions
    assert any(len(e["alias_trail"]) > 2 for c in seen.values() for e in c["entities"])
    # Without stored trails (a database from before they were stored) both walk the mentions, to the same trails.
    db.run("MATCH (e:Entity) REMOVE e.trail_aliases, e.trail_methods, e.trail_run_ids, e.trail_confidences, "
           "e.trail_mentions")
    for (q, opts), ctx in seen.items():
        for r in (plugin, plain):
            assert r.retrieve(q, **dict(opts)).model_dump(exclude={"ms"}) == ctx, (q, opts)


def test_a_trail_with_a_null_field_is_walked_not_stored(db, tmp_path):
    """A list property cannot hold null: a REFERS_TO without a confidence (written by hand, say)
    leaves the entity without a stored trail, and both context paths walk its mentions instead."""
    recs = [{"kind": "chunk", "id": "c1", "text": "Holmes and Holmes."}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": "Holmes", "chunk_id": "c1"} for i in range(2)]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", recs))
    db.run("MATCH (m:Mention {source_key: 'm1'})-[r:REFERS_TO]->(), (e:Entity {id: 'ent:jsonl:m0'}) "
           "CREATE (m)-[:REFERS_TO {method: 'by hand', run_id: 'x'}]->(e) DELETE r")
    refresh(db, ["ent:jsonl:m0", "ent:jsonl:m1"])
    stored = db.run("MATCH (e:Entity {id: 'ent:jsonl:m0'}) RETURN e.trail_aliases AS t, e.mention_count AS n")[0]
    assert stored == {"t": None, "n": 2}
    params = dict(ids=["ent:jsonl:m0"], weights=[1.0], relations=10, chunks=5, chars=100)
    trails = [db.read(f, **params)[0]["entities"][0]["alias_trail"]
              for f in ("retrieve_context", "retrieve_context_procedure")]
    run = db.run("MATCH (:Mention {source_key: 'm0'})-[r:REFERS_TO]->() RETURN r.run_id AS r")[0]["r"]
    assert trails[0] == trails[1] == [
        {"alias": "Holmes", "method": "by hand", "run_id": "x", "confidence": None, "mentions": 1},
        {"alias": "Holmes", "method": "ingest", "run_id": run, "confidence": 1.0, "mentions": 1}]


def _http(method: str, url: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    req = urllib.request.Request(url, method=method, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"content-type": "application/json",
                                          **({"authorization": f"Bearer {token}"} if token else {})})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, json.loads(resp.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_http_api_answers_and_rejects_bad_requests(resolved):
    from kgres.retrieve.serve import Server, create_app

    r = Retriever(resolved)
    with Server(create_app(resolved, r), port=free_port()) as server:
        assert _http("GET", server.url + "/health") == (200, {"status": "ok", "version": _version(),
                                                              "entities": _entities(resolved)})
        status, body = _http("POST", server.url + "/retrieve", {"query": QUESTION, "k": 1, "hops": 2})
        assert status == 200 and {"Sherlock Holmes", "violin"} <= {e["name"] for e in body["entities"]}
        sherlock = next(e["id"] for e in body["entities"] if e["name"] == "Sherlock Holmes")
        status, body = _http("GET", f"{server.url}/entities/{sherlock}")
        assert status == 200 and {m["name"] for m in body["mentions"]} >= {"Sherlock Holmes", "Mr. Holmes"}
        assert _http("GET", server.url + "/entities/nope")[0] == 404
        for bad in ({}, {"query": ""}, {"query": "x", "mode": "bogus"}, {"query": "x", "k": 0},
                    {"query": "x", "colour": "red"}):
            status, body = _http("POST", server.url + "/retrieve", bad)
            assert status == 422 and body["detail"], bad
        status, body = _http("POST", server.url + "/retrieve", {"query": "x", "layer": "mentions", "mode": "ppr"})
        assert status == 400 and "local mode only" in body["detail"]
        status, body = _http("POST", server.url + "/retrieve", {"query": "x", "answer": True})
        assert status == 400 and "no LLM configured" in body["detail"]
        status, schema = _http("GET", server.url + "/openapi.json")
        assert status == 200 and {"/retrieve", "/entities/{entity_id}", "/health"} <= set(schema["paths"])


def test_http_token_and_bind_rules(resolved):
    from kgres.retrieve.serve import Server, check_bind, create_app

    with Server(create_app(resolved, Retriever(resolved), token="s3cret"), port=free_port()) as server:
        assert _http("GET", server.url + "/health")[0] == 401
        assert _http("GET", server.url + "/health", token="wrong")[0] == 401
        assert _http("GET", server.url + "/health", token="s3cret")[0] == 200
    check_bind("127.0.0.1", None)
    with pytest.raises(ConfigError, match="KGRES_SERVE_TOKEN"):
        check_bind("0.0.0.0", None)
    check_bind("0.0.0.0", "s3cret")


def _version() -> str:
    from kgres import __version__
    return __version__


def _entities(db) -> int:
    return db.run("MATCH (e:Entity) RETURN count(e) AS n")[0]["n"]


def _scripted(position_biased: bool):
    """Answers name what their context holds; the comparison judge either always prefers the answer it
    reads first (position bias) or prefers the answer that found the violin."""
    def chat(body) -> str:
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        if system.startswith("Answer the question"):
            found = "violin" in user
            return json.dumps({"answer": "The lodger plays the violin." if found else "Unknown from the context.",
                               "citations": ["jsonl:c2"] if found else []})
        if position_biased:
            pick = "1"
        else:
            first = user.split("Answer 1:")[1].split("Answer 2:")[0]
            pick = "1" if "violin" in first else "2"
        return json.dumps({c: pick for c in ("comprehensiveness", "diversity", "empowerment", "overall")})
    return chat


@pytest.mark.parametrize("biased,expected", [(False, 1.0), (True, 0.5)])
def test_eval_answers_both_orders_cancel_position_bias(resolved, biased, expected):
    from kgres.evaluate.answers import evaluate
    from kgres.llm import LLMSettings, client
    from tests.openai_server import OpenAIServer

    with OpenAIServer() as server:
        server.chat = _scripted(biased)
        llm = client(resolved, LLMSettings(model="test-model", base_url=server.base_url))
        r = Retriever(resolved, llm=llm)
        out = evaluate(r, llm, [{"id": "q1", "question": QUESTION}], k=1, hops=2)
    assert out.comparisons == 2 and out.failed == 0
    assert out.win_rate == {c: expected for c in ("comprehensiveness", "diversity", "empowerment", "overall")}
    assert out.results[0]["after"] == "The lodger plays the violin."
    assert out.results[0]["before"] == "Unknown from the context."


def test_cli_query_and_eval_answers(resolved, neo4j_env, monkeypatch, tmp_path):
    from click.testing import CliRunner

    from kgres.cli import main
    from tests.openai_server import OpenAIServer

    monkeypatch.delenv("KGRES_LLM_MODEL", raising=False)
    out = CliRunner().invoke(main, ["query", QUESTION, "--k", "1", "--hops", "2", "--json"], catch_exceptions=False)
    body = json.loads(out.stdout)
    assert out.exit_code == 0 and body["answer"] is None and "violin" in {e["name"] for e in body["entities"]}
    qfile = tmp_path / "q.jsonl"
    qfile.write_text(json.dumps({"question": QUESTION}) + "\n")
    out = CliRunner().invoke(main, ["eval", "answers", "--questions", str(qfile)], catch_exceptions=False)
    assert out.exit_code == 0 and "no LLM configured" in out.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"chain": ["a", "b"]}\n')
    out = CliRunner().invoke(main, ["eval", "answers", "--questions", str(bad)])
    assert out.exit_code == 1 and "question" in out.stderr and "line 1" in out.stderr
    with OpenAIServer() as server:
        server.chat = _scripted(False)
        monkeypatch.setenv("KGRES_LLM_MODEL", "test-model")
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "k")
        out = CliRunner().invoke(main, ["query", QUESTION, "--k", "1", "--hops", "2"], catch_exceptions=False)
        assert out.exit_code == 0 and "Answer: The lodger plays the violin." in out.stdout
        assert "Sources: jsonl:c2" in out.stdout


def _raw(url: str, data: bytes, headers: dict[str, str]) -> tuple[int, bytes]:
    """POST ``data`` as it is (GET when empty), so that malformed bodies can be sent."""
    req = urllib.request.Request(url, method="POST" if data else "GET", data=data or None,
                                 headers={"content-type": "application/json", **headers})
    try:
        with urllib.request.urlopen(req, timeout=60) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


def test_http_hardening_token_first_no_echo_body_limit_any_id(resolved):
    """What a hostile tester found: malformed JSON answered 422 before the token check, a 50 MB body
    came back echoed in the 422, a lone surrogate and NaN got bare 500s, ids with '/' could not be
    fetched, lowercase 'bearer' was refused, a one-space token was accepted, /docs needed a CDN."""
    from kgres.retrieve.serve import Server, check_bind, create_app

    original = resolved.run("MATCH (e:Entity {name: 'violin'}) RETURN e.id AS id")[0]["id"]
    with Server(create_app(resolved, Retriever(resolved), token="s3cret", max_body_bytes=100_000),
                port=free_port()) as server:
        url = server.url + "/retrieve"
        assert _raw(url, b"{not json", {})[0] == 401  # the token first, before the body is parsed
        assert _raw(server.url + "/openapi.json", b"", {})[0] == 401
        auth = {"authorization": "bearer s3cret"}  # the scheme in any case
        assert _raw(url, json.dumps({"query": QUESTION, "k": 1}).encode(), auth)[0] == 200
        big = json.dumps({"query": "x" * 90_000, "k": "y" * 5000}).encode()
        status, body = _raw(url, big, auth)
        assert status == 422 and len(body) < 5000  # names the fields, never repeats the input
        assert _raw(url, json.dumps({"query": "x" * 200_000}).encode(), auth)[0] == 413
        for bad in (b'{"query": "\\ud800"}', b'{"query": "x", "k": NaN}', b'{"query": "x", "k": Infinity}'):
            status, body = _raw(url, bad, auth)
            assert status == 422 and b"detail" in body, bad
        resolved.run("MATCH (e:Entity {id: $id}) SET e.id = 'odd/id with space?'", id=original)
        status, body = _raw(server.url + "/entities/" + urllib.parse.quote("odd/id with space?", safe=""), b"", auth)
        resolved.run("MATCH (e:Entity {id: 'odd/id with space?'}) SET e.id = $id", id=original)
        assert status == 200 and json.loads(body)["entity"]["name"] == "violin"
        assert _raw(server.url + "/docs", b"", auth)[0] == 404
    with pytest.raises(ConfigError, match="blank"):
        create_app(resolved, Retriever(resolved), token=" ")
    with pytest.raises(ConfigError, match="KGRES_SERVE_TOKEN"):
        check_bind("0.0.0.0", " ")



def test_communities_do_not_depend_on_the_order_the_edges_were_stored_in(db, tmp_path):
    """The same graph gets the same Leiden communities, ids and all, and the same PageRank ranking,
    whichever order its RELATED edges were stored in (which relationship ids a transaction got varies
    from one load of the same input to the next): GDS numbers the projection's nodes as it meets them,
    Leiden (seeded, single-threaded) visits them in that order, and equal PageRank scores rank by it.
    Three hubs stored first and sharing thirty neighbours meet them through their edges."""
    hubs = {"h0": range(0, 20), "h1": range(10, 30), "h2": [*range(0, 5), *range(25, 30)]}
    records = [{"kind": "chunk", "id": "c1", "text": "Three firms and their people."}]
    records += [{"kind": "mention", "id": h, "name": f"Firm {h}", "type": "ORG", "chunk_id": "c1"} for h in hubs]
    records += [{"kind": "mention", "id": f"p{i}", "name": f"Person {i}", "type": "PERSON", "chunk_id": "c1"}
                for i in range(30)]
    records += [{"kind": "triple", "subject": h, "predicate": "EMPLOYS", "object": f"p{i}"}
                for h, people in hubs.items() for i in people]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", records))

    def state() -> tuple[dict, list]:
        db.run("CALL gds.graph.list() YIELD graphName CALL gds.graph.drop(graphName) YIELD nodeCount RETURN 1")
        r = Retriever(db)
        r.communities(force=True)
        ranked = db.query("retrieve_ppr", graph=r.projection(), seeds=["ent:jsonl:h0"], limit=50, damping=0.85)
        communities = db.run("MATCH (e:Entity) RETURN e.id AS id, e.community AS c")
        return {x["id"]: x["c"] for x in communities}, [(x["id"], round(x["score"], 9)) for x in ranked]

    first = state()
    assert len(first[1]) == 33
    edges = db.run("MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id AS a, b.id AS b, properties(r) AS p "
                   "ORDER BY a.id DESC, b.id DESC")
    db.run("MATCH (:Entity)-[r:RELATED]->(:Entity) DELETE r")
    db.run("UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b}) "
           "CREATE (a)-[r:RELATED]->(b) SET r = row.p", rows=edges)
    assert state() == first
