"""Resolution on the real database: known answers on the failure modes, and the invariants."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest

from kgres import ingest
from kgres.resolve import merge
from kgres.errors import KgresError
from kgres.resolve.embed import embed
from kgres.resolve.normalize import name_keys, normalize
from kgres.resolve import resolve
from tests.graphs import (assert_aggregates_current, graph_state, assert_decisions_recorded,
                          assert_one_refers_to_per_mention, assert_related_derived, snapshot, write_jsonl)

# (id, name, type, chunk): the cases the issue names.
MENTIONS = [
    ("sh1", "Sherlock Holmes", "PERSON", "c1"), ("sh2", "Holmes", "PERSON", "c2"),
    ("sh3", "Mr. Holmes", "PERSON", "c3"), ("sh4", "Sherlock", "PERSON", "c3"),
    ("sh5", "Mr. Sherlock Holmes", "PERSON", "c4"), ("my1", "Mycroft Holmes", "PERSON", "c5"),
    ("bs1", "Baker Street", "GEO", "c1"), ("bs2", "Baker Street", "ORGANIZATION", "c4"),
    ("pm1", "Pall Mall", "GEO", "c5"), ("ap1", "Apple I", "PRODUCT", "c6"), ("ap2", "Apple II", "PRODUCT", "c6"),
    ("ip7", "iPhone 7", "PRODUCT", "c7"), ("ip8", "iPhone 8", "PRODUCT", "c7"),
    ("js1", "J. Smith", "PERSON", "c8"), ("js2", "John Smith", "PERSON", "c8"), ("js3", "Jane Smith", "PERSON", "c9"),
    ("llm1", "Large Language Models", "CONCEPT", "c10"), ("llm2", "LLMs", "CONCEPT", "c10"),
]
TRIPLES = [("sh1", "LIVES_AT", "bs1"), ("my1", "MEMBER_OF", "pm1"), ("sh5", "LIVES_AT", "bs2"),
           ("sh2", "LIVES_AT", "bs1")]


def fixture(tmp_path: Path) -> Path:
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(1, 11)]
    recs += [{"kind": "mention", "id": i, "name": n, "type": t, "chunk_id": c} for i, n, t, c in MENTIONS]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o} for s, p, o in TRIPLES]
    return write_jsonl(tmp_path / "cases.jsonl", recs)


def groups(db) -> set[frozenset[str]]:
    rows = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity) RETURN e.id AS e, collect(m.source_key) AS ms")
    return {frozenset(r["ms"]) for r in rows}


def _short_form(signals: str) -> str | None:
    import json

    return (json.loads(signals).get("levels") or {}).get("short_form")


def pair_band(db, a: str, b: str) -> str | None:
    """The band of the latest scored pair between the entities of two mentions (by input id)."""
    rows = db.run("MATCH (:Mention {source_key: $a})-[:REFERS_TO|REFERRED_TO]->(x) "
                  "MATCH (:Mention {source_key: $b})-[:REFERS_TO|REFERRED_TO]->(y) "
                  "MATCH (x)-[c:CANDIDATE]-(y) WHERE c.band IS NOT NULL RETURN c.band AS band", a=a, b=b)
    return rows[0]["band"] if rows else None


def test_known_answers(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    stats = resolve(db)
    g = groups(db)
    assert frozenset({"sh1", "sh2", "sh3", "sh4", "sh5"}) in g       # Sherlock's variants merge
    assert frozenset({"my1"}) in g                                  # Mycroft stays apart
    # one name, two types: merged, or (the model unsure on so small a graph) waiting in review
    assert frozenset({"bs1", "bs2"}) in g or pair_band(db, "bs1", "bs2") == "review"
    assert frozenset({"pm1"}) in g                                  # Pall Mall is not Baker Street
    for x in ("ap1", "ap2", "ip7", "ip8"):                          # numbers stay significant
        assert frozenset({x}) in g
    assert not any({"js2", "js3"} <= grp for grp in g)              # chain trap: J. Smith fits both,
    js1 = db.run("MATCH (:Entity {id: 'ent:jsonl:js1'})-[c:CANDIDATE]-(o) "
                 "RETURN o.name AS o, c.band AS band, c.signals_json AS signals")
    fits = {r["o"] for r in js1 if r["band"] == "review" and _short_form(r["signals"]) == "ambiguous"}
    assert fits == {"John Smith", "Jane Smith"}                     # ...so both pairs wait in review
    assert frozenset({"js1"}) in g
    assert frozenset({"llm1", "llm2"}) in g                         # acronym
    assert stats.entities_before == 18 and stats.entities_after == len(g)
    canonical = db.run("MATCH (m:Mention {source_key: 'sh2'})-[:REFERS_TO]->(e) RETURN e.name AS n")[0]["n"]
    assert canonical == "Sherlock Holmes"


@pytest.mark.parametrize("club,expected", [("pm1", "my1"), ("bs1", "sh1")])
def test_an_ambiguous_surname_follows_its_context(db, tmp_path, club, expected):
    """Two bare "Holmes" never join each other on the name alone when the surname is shared by two
    people; each goes where its neighbours point (Mycroft's Pall Mall, or Sherlock's Baker Street)."""
    recs = [{"kind": "mention", "id": i, "name": n, "type": t} for i, n, t, _ in MENTIONS if i in
            {"sh1", "my1", "pm1", "bs1"}]
    recs += [{"kind": "mention", "id": "h1", "name": "Holmes", "type": "PERSON"},
             {"kind": "mention", "id": "h2", "name": "Holmes", "type": "PERSON"},
             {"kind": "triple", "subject": "sh1", "predicate": "LIVES_AT", "object": "bs1"},
             {"kind": "triple", "subject": "my1", "predicate": "MEMBER_OF", "object": "pm1"},
             {"kind": "triple", "subject": "h1", "predicate": "SEEN_AT", "object": club},
             {"kind": "triple", "subject": "h2", "predicate": "SEEN_AT", "object": "bs1" if club == "pm1" else "pm1"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "h.jsonl", recs))
    resolve(db)
    g = groups(db)
    home = next(grp for grp in g if "h1" in grp)
    assert expected in home and "h2" not in home
    assert not any({"sh1", "my1"} <= grp for grp in g)


def test_invariants_after_resolve(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    before = db.run("MATCH (m:Mention) WITH count(m) AS m MATCH ()-[t:RELATES]->() RETURN m, count(t) AS t")[0]
    resolve(db)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_decisions_recorded(db)
    assert_related_derived(db)
    after = db.run("MATCH (m:Mention) WITH count(m) AS m MATCH ()-[t:RELATES]->() RETURN m, count(t) AS t")[0]
    assert after == before                                          # nothing extracted is lost
    moved = db.run("MATCH (:Mention)-[r:REFERS_TO]->(:Entity) WHERE r.method IN ['rules', 'model'] "
                   "RETURN r.previous_entity_id AS prev, r.evidence AS ev, r.run_id AS run")
    assert moved and all(r["prev"] and r["ev"].startswith("{") and r["run"].startswith("run-") for r in moved)
    # the projection follows: the three LIVES_AT triples of Sherlock's variants now start at one entity
    rel = db.run("MATCH (:Entity {name: 'Sherlock Holmes'})-[r:RELATED {predicate: 'LIVES_AT'}]->(b) "
                 "RETURN b.name AS b, size(r.triple_ids) AS n")
    assert {r["b"] for r in rel} == {"Baker Street"} and sum(r["n"] for r in rel) == 3
    assert db.run("MATCH (e:RetiredEntity) RETURN count(e) AS n")[0]["n"] == 18 - len(groups(db))


def _vector_index_id(db) -> int:
    return db.run("SHOW VECTOR INDEXES YIELD name, id WHERE name = 'entity_embedding' RETURN id")[0]["id"]


def test_the_rebuild_weighs_the_vectors_merges_deleted_against_the_entities_left(db, tmp_path):
    """Copies a collapse merges before they are embedded delete no vector; entities a scored pass
    merges do. Those are weighed against the entities left (what the index holds), so a graph of many
    copies and a few scored merges still gets its index rebuilt."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    ingest.ingest_records(db, [{"kind": "mention", "id": f"pm-{i}", "name": "Pall Mall", "type": "GEO"}
                               for i in range(200)])
    index = _vector_index_id(db)
    stats = resolve(db)
    deleted = db.run("MATCH (e:RetiredEntity) WHERE e.embedding IS NOT NULL RETURN count(e) AS n")[0]["n"]
    assert 0.1 * stats.entities_after <= deleted < 0.1 * stats.entities_before
    assert "reindex" in stats.seconds and _vector_index_id(db) != index


def test_a_resolve_that_merges_rebuilds_the_entity_vector_index(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    index = _vector_index_id(db)
    stats = resolve(db)
    assert stats.merged_entities >= 0.1 * stats.entities_before and "reindex" in stats.seconds
    rebuilt = _vector_index_id(db)
    assert rebuilt != index                                          # dropped and built again
    live = db.run("MATCH (e:Entity) WHERE e.embedding IS NOT NULL RETURN e.id AS id, e.embedding AS v")
    for row in live:                                                 # searchable again, live entities only
        hits = db.run("CALL db.index.vector.queryNodes('entity_embedding', 50, $v) YIELD node, score "
                      "RETURN node.id AS id, score", v=row["v"])
        assert hits[0]["id"] == row["id"] and len(hits) == len(live)
    again = resolve(db)                                              # merges nothing: no rebuild
    assert again.merged_entities == 0 and "reindex" not in again.seconds
    assert _vector_index_id(db) == rebuilt
    # New mentions of names the graph has join those entities (which keep their ids) before they are
    # embedded: they delete no vector, so however many there are, the index (and vector search) stays up.
    # Their ids sort first ("ent:api:..."), so the tie-break alone would have kept the new copies.
    names = db.run("MATCH (e:Entity) RETURN e.id AS id, e.name AS name, e.type AS type ORDER BY name")
    ingest.ingest_records(db, [{"kind": "mention", "id": f"again-{i}", "name": r["name"], "type": r["type"]}
                               for i, r in enumerate(names)])
    added = resolve(db, new=True)
    assert added.incremental and added.merged_entities >= 0.1 * added.entities_before
    assert "reindex" not in added.seconds and _vector_index_id(db) == rebuilt
    assert {r["id"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id")} >= {r["id"] for r in names}


@pytest.mark.parametrize("batch", [5000, 2])
def test_rollback_restores_exactly(db, tmp_path, monkeypatch, batch):
    """Also in batches of two mentions: a large rollback runs as many bounded transactions."""
    monkeypatch.setattr(merge, "ROLLBACK_BATCH", batch)
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)  # keys and text embeddings are derived data a run writes; snapshot with them in place
    embed(db)
    before = snapshot(db)
    stats = resolve(db)
    assert snapshot(db) != before
    merge.rollback(db, stats.run_id)
    assert graph_state(snapshot(db)) == graph_state(before)
    assert db.run("MATCH (r:ResolutionRun) RETURN r.status AS s")[0]["s"] == "rolled_back"


def test_same_config_twice_gives_the_same_result(db, tmp_path):
    path = fixture(tmp_path)
    ingest.ingest(db, "jsonl", path)
    first = resolve(db)
    result = groups(db)
    merge.rollback(db, first.run_id)
    resolve(db)
    assert groups(db) == result


def test_rejected_pair_is_never_merged(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    db.run("MATCH (a:Entity {id: 'ent:jsonl:sh1'}), (b:Entity {id: 'ent:jsonl:sh5'}) "
           "CREATE (a)-[:NOT_SAME_AS {decided_by: 'test', decided_at: datetime(), reason: 'two people'}]->(b)")
    resolve(db)
    g = groups(db)
    assert not any({"sh1", "sh5"} <= grp for grp in g)
    # and it survives a later run, even though sh1 and sh5 are now reached through merged entities
    resolve(db)
    assert not any({"sh1", "sh5"} <= grp for grp in groups(db))


def test_second_run_changes_nothing_and_rollback_order_is_enforced(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    first = resolve(db)
    result = groups(db)
    second = resolve(db)
    assert groups(db) == result and second.merged_entities == 0
    with pytest.raises(KgresError, match="no resolution run"):
        merge.rollback(db, "run-nope")
    merge.rollback(db, second.run_id)
    merge.rollback(db, first.run_id)
    assert len(groups(db)) == 18


def test_cli_resolve_explain_rollback(db, neo4j_env, tmp_path):
    import json

    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    run = CliRunner()
    out = run.invoke(main, ["resolve", "--json"], catch_exceptions=False)
    assert out.exit_code == 0
    doc = json.loads(out.stdout)
    run_id = doc["run_id"]
    # off a terminal, stderr says what each stage did as it ends, with the counts the run reports
    said = out.stderr.splitlines()
    assert [x.split("  ")[0] for x in said[:8]] == ["pass 1: normalize", "pass 1: collapse", "pass 2: normalize",
                                                   "pass 2: embed", "pass 2: block", "pass 2: score",
                                                   "pass 2: cluster", "pass 2: merge"]

    def counted(stage: str, unit: str) -> list[int]:
        found = (re.fullmatch(rf"pass \d+: {stage}  ([\d,]+) {unit} in \d+\.\d s \([\d,]+ {unit}/s\)", x) for x in said)
        return [int(m[1].replace(",", "")) for m in found if m]

    scored = counted("score", "pairs")
    assert len(scored) == doc["passes"] - 1 and sum(scored) == doc["candidate_pairs"]
    assert sum(counted("(?:collapse|merge)", "entities")) == doc["merged_entities"] > 0
    assert counted("block", "entity reads")[0] == 18 - doc["collapsed_entities"]
    ex = run.invoke(main, ["explain", "Holmes", "--json"], catch_exceptions=False)
    doc = json.loads(ex.output)
    assert doc["entity"]["name"] == "Sherlock Holmes" and len(doc["mentions"]) == 5
    assert all(m["method"] in ("model", "rules", "ingest") and m["evidence"] for m in doc["mentions"])
    apple = json.loads(run.invoke(main, ["explain", "Apple I", "--json"]).output)
    assert any("numbers differ" in (p["cannot_link"] or "") and p["other_name"] == "Apple II" for p in apple["pairs"])
    assert run.invoke(main, ["explain", "nobody at all"]).exit_code == 1
    # kept-apart pairs by run and other id, not in the order their edges were stored (a score stage
    # writes from two transactions): the same edges stored again in another order list the same
    from kgres.curate.explain import explain
    edges = db.run("MATCH (a:Entity)-[c:CANDIDATE]->(b:Entity) RETURN a.id AS a, b.id AS b, properties(c) AS p "
                   "ORDER BY c.run_id, a.id, b.id")
    db.run("MATCH (:Entity)-[c:CANDIDATE]->(:Entity) DELETE c")
    db.run("UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b}) "
           "CREATE (a)-[c:CANDIDATE]->(b) SET c = row.p", rows=edges)
    listed = [explain(db, r["id"]).pairs for r in db.run("MATCH (e:Entity) RETURN e.id AS id ORDER BY id")]
    several = [p for p in listed if len({x["other_id"] for x in p}) > 1]
    assert several and all(p == sorted(p, key=lambda x: (x["run_id"], x["other_id"])) for p in several)
    assert run.invoke(main, ["rollback", run_id]).exit_code == 0
    assert len(groups(db)) == 18
    rebuilt = run.invoke(main, ["rebuild", "--json"], catch_exceptions=False)
    assert json.loads(rebuilt.output) == {"entities": 18, "vector_index_rebuilt": True}
    assert "18 entities; entity vector index rebuilt" in run.invoke(main, ["rebuild"]).output


def test_export_clusters_lists_input_ids(db, tmp_path):
    from kgres.curate import export

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    rows = list(export.clusters(db))
    assert sorted(k for r in rows for k in r["mention_ids"]) == sorted(m[0] for m in MENTIONS)
    sherlock = next(r for r in rows if "sh1" in r["mention_ids"])
    assert sherlock["mention_ids"] == ["sh1", "sh2", "sh3", "sh4", "sh5"] and sherlock["name"] == "Sherlock Holmes"
    assert "sources" not in sherlock


def test_cli_export(db, neo4j_env, tmp_path):
    import json

    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    out = CliRunner().invoke(main, ["export", "clusters"], catch_exceptions=False)
    assert out.exit_code == 0
    lines = [json.loads(l) for l in out.output.splitlines()]
    assert len(lines) == len(MENTIONS) and all(len(l["mention_ids"]) == 1 for l in lines)


def test_cli_resolve_rejects_bad_settings(db, neo4j_env, tmp_path):
    from click.testing import CliRunner

    from kgres.cli import main

    cfg = tmp_path / "kgres.toml"
    cfg.write_text("[resolve.score]\nauto_threshold = 0.5\nreview_threshold = 0.6\n")
    out = CliRunner().invoke(main, ["--config", str(cfg), "resolve"])
    assert out.exit_code == 1 and "review_threshold must be below auto_threshold" in out.stderr
    cfg.write_text("[resolve.block]\nstrategies = [\"telepathy\"]\n")
    out = CliRunner().invoke(main, ["--config", str(cfg), "resolve"])
    assert out.exit_code == 1 and "invalid [resolve] settings" in out.stderr
    out = CliRunner().invoke(main, ["resolve", "--config", str(cfg)])  # the spelling
    assert out.exit_code == 1 and "invalid [resolve] settings" in out.stderr
    cfg.write_text('[resolve.embed]\nbf16 = "maybe"\n')
    out = CliRunner().invoke(main, ["--config", str(cfg), "resolve"])
    assert out.exit_code == 1 and "invalid [resolve] settings" in out.stderr and "bf16" in out.stderr
    assert db.run("MATCH (r:ResolutionRun) RETURN count(r) AS n")[0]["n"] == 0  # nothing started


def test_resolve_on_an_empty_graph_merges_nothing(db):
    stats = resolve(db)
    assert (stats.entities_before, stats.entities_after, stats.groups) == (0, 0, 0)


def test_a_surname_two_people_share_stays_apart_without_context(db, tmp_path):
    """Two equally known Berners and two bare "Berners" with no shared context: nothing says which
    Berners either bare mention means, nor that both mean the same one; they stay apart, in review."""
    recs = [{"kind": "mention", "id": i, "name": n, "type": "PERSON"} for i, n in
            (("a1", "Alan Berners"), ("a2", "Alan Berners"), ("j1", "José Berners"), ("j2", "Jose Berners"),
             ("b1", "Berners"), ("b2", "Dr. Berners"))]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "b.jsonl", recs))
    resolve(db)
    assert groups(db) == {frozenset({"a1", "a2"}), frozenset({"j1", "j2"}), frozenset({"b1"}), frozenset({"b2"})}
    review = db.run("MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]-(b:Entity) WHERE a.name = 'Berners' "
                    "RETURN DISTINCT b.name AS b, c.signals_json AS signals")
    assert {r["b"] for r in review} >= {"Alan Berners", "Dr. Berners"}
    assert all(_short_form(r["signals"]) == "ambiguous" for r in review)


def test_identifiers_in_attributes_keep_namesakes_apart(db, tmp_path):
    recs = [{"kind": "mention", "id": i, "name": "John Smith", "type": "PERSON", "attributes": {"orcid": o}}
            for i, o in (("a", "0000-0001"), ("b", "0000-0001"), ("c", "0000-0002"))]
    recs.append({"kind": "mention", "id": "d", "name": "John Smith", "type": "PERSON"})
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "ids.jsonl", recs))
    resolve(db)
    g = groups(db)
    assert frozenset({"a", "b"}) <= next(x for x in g if "a" in x) and not any({"a", "c"} <= x for x in g)
    why = db.run("MATCH (:Entity)-[c:CANDIDATE]-(:Entity) WHERE c.cannot_link CONTAINS 'identifiers differ' "
                 "RETURN count(c) AS n")[0]["n"]
    assert why > 0


def test_legal_suffixes_match_by_default_as_evidence(db, tmp_path):
    """"Acme Corporation", "ACME Corp." and "Acme, Inc." are one company with no setting changed: the
    model weighs the level ``legal_suffix`` (the keys keep their suffixes). A company whose name only
    shares a word stays apart."""
    names = [("c1", "Acme Corporation"), ("c2", "ACME Corp."), ("c3", "Acme, Inc."), ("c4", "Acme Corporation"),
             ("w1", "Acme Widgets"), ("i1", "Initech Ltd"), ("i2", "Initech"), ("g1", "Globex")]
    recs = [{"kind": "mention", "id": i, "name": n, "type": "ORGANIZATION", "chunk_id": f"k{k}",
             "description": "a company"} for k, (i, n) in enumerate(names)]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "orgs.jsonl", recs))
    resolve(db)
    assert groups(db) == {frozenset({"c1", "c2", "c3", "c4"}), frozenset({"i1", "i2"}), frozenset({"w1"}),
                          frozenset({"g1"})}
    rules = db.run("MATCH (a)-[c:CANDIDATE]-(b) WHERE a.name = 'Initech' AND b.name = 'Initech Ltd' "
                   "RETURN c.name_rule AS rule")
    assert {r["rule"] for r in rules} == {"legal_suffix"}
    assert name_keys("ACME Corp.", "ORGANIZATION").core != name_keys("Acme, Inc.", "ORGANIZATION").core


def test_resolve_reaches_a_fixed_point_and_reuses_its_model_until_something_arrives(db, tmp_path):
    """A generated graph where merges change other pairs' context: the first resolve runs passes
    until one over every entity merges nothing; a second one, with nothing new, scores with the
    same model and changes nothing; after an import the next one resolves the new entity
    incrementally with that model, and a whole one (--full) after an import trains again."""
    from kgres.encoders import encoder_precision
    from kgres.evaluate.synth import generate
    from kgres.resolve.embed import EmbedConfig

    generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 800, seed=3)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    thresholds = gc.get_threshold()
    first = resolve(db)
    state = groups(db)
    assert first.model_trained and first.merged_entities > 0 and first.converged
    assert first.embed_precision == encoder_precision(EmbedConfig())  # the run records how it encoded
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds  # kgres.resolve.heap gave them back
    second = resolve(db)
    assert second.merged_entities == 0 and groups(db) == state and second.converged
    assert second.model_id == first.model_id and not second.model_trained
    write_jsonl(tmp_path / "more.jsonl", [{"kind": "mention", "id": "late1", "name": "Late Arrival", "type": "PERSON"}])
    ingest.ingest(db, "jsonl", tmp_path / "more.jsonl")
    third = resolve(db)
    assert third.incremental and third.new_entities == 1 and third.model_id == first.model_id
    assert not third.model_trained
    fourth = resolve(db, new=False)  # whole, but nothing new since the increment: its model, no merge
    assert not fourth.model_trained and fourth.merged_entities == 0
    write_jsonl(tmp_path / "more.jsonl", [{"kind": "mention", "id": "late2", "name": "Later Arrival", "type": "PERSON"}])
    ingest.ingest(db, "jsonl", tmp_path / "more.jsonl")
    assert resolve(db, new=False).model_trained  # a whole resolve after an import trains again


def test_a_resolve_stopped_by_the_pass_cap_says_so_and_the_next_goes_on(db, neo4j_env, tmp_path):
    """A resolve that reaches max_passes while its last pass still merges is not a fixed point: it
    says so (converged false, how many the last pass merged; a note on stderr), and the next resolve
    goes on from there to one (here its pass over every entity merges nothing more)."""
    import json

    from click.testing import CliRunner

    from kgres.cli import main
    from kgres.evaluate.synth import generate

    generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 800, seed=3)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    cfg = tmp_path / "kgres.toml"
    cfg.write_text("[resolve]\nmax_passes = 1\n")
    out = CliRunner().invoke(main, ["--config", str(cfg), "resolve"], catch_exceptions=False)
    assert out.exit_code == 0
    last = db.run("MATCH (r:ResolutionRun) RETURN r.stats AS s ORDER BY r.started_at DESC LIMIT 1")[0]["s"]
    merged = json.loads(last)["merged_entities"]
    assert merged > 0  # the one scored pass merged
    assert f"stopped after 2 passes ([resolve] max_passes) while its last pass still merged {merged:,} " \
           "entities" in " ".join(out.stderr.split())
    stats = json.loads(CliRunner().invoke(main, ["resolve", "--json"], catch_exceptions=False).stdout)
    assert stats["converged"] and stats["last_pass_merged"] == 0  # its last pass, over every entity, merged none


def test_a_rollback_interrupted_after_its_moves_is_finished_exactly_by_a_rerun(db, tmp_path):
    """The moves commit before the refresh of what they touched: a rollback killed in between left
    entities with stale counts, aliases and RELATED edges, and its rerun reported 0 and exited 0.
    The touched entities are now marked in the moves' own transactions."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    before = snapshot(db)
    stats = resolve(db)
    newest = db.run("MATCH (r:ResolutionRun) WHERE EXISTS { ()-[:REFERS_TO {run_id: r.id}]->() } "
                    "RETURN r.id AS id ORDER BY r.started_at DESC, r.id DESC LIMIT 1")[0]["id"]
    moved = db.query("resolve_rollback_run", run_id=newest, limit=2)[0]["moved"]  # killed here
    assert moved and db.run("MATCH (e:Stale) RETURN count(e) AS n")[0]["n"] > 0
    assert merge.rollback(db, stats.run_id) > 0
    assert graph_state(snapshot(db)) == graph_state(before)
    assert_aggregates_current(db)


def test_a_killed_rollback_command_rerun_leaves_what_an_uninterrupted_one_leaves(db, neo4j_env, tmp_path,
                                                                                 monkeypatch):
    """A real ``kill -9`` of ``kgres rollback`` (in one-mention transactions, so the kill lands
    mid-way) at several points; the rerun, a ``kgres rollback`` that takes over the dead one's writer
    lock once its heartbeat expires, must end in the state before the resolve."""
    from click.testing import CliRunner

    from kgres.cli import main

    import signal
    import subprocess
    import sys
    import time

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    before = graph_state(snapshot(db))
    code = ("import sys; import kgres.resolve.merge as m; m.ROLLBACK_BATCH = 1; from kgres.cli import main; "
            "main(['rollback', sys.argv[1]])")
    interrupted = 0
    monkeypatch.setenv("KGRES_LOCK__TTL_S", "2")  # the killed command's lock expires 2 s after its last beat
    for delay in (0.0, 0.1):
        run_id = resolve(db).run_id
        proc = subprocess.Popen([sys.executable, "-c", code, run_id], stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        while proc.poll() is None and not db.run("MATCH (e:Stale) RETURN count(e) > 0 AS started")[0]["started"]:
            time.sleep(0.01)  # the kill lands once the moves have begun, then after a little more work
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        status = db.run("MATCH (r:ResolutionRun {id: $id}) RETURN r.status AS s", id=run_id)[0]["s"]
        if status != "rolled_back":
            interrupted += 1
            assert db.run("MATCH (l:WriterLock) RETURN l.owner AS o")[0]["o"].startswith("kgres rollback")
            rerun = CliRunner().invoke(main, ["rollback", run_id], catch_exceptions=False)
            assert rerun.exit_code == 0 and "took over the writer lock of kgres rollback" in rerun.stderr
            assert db.run("MATCH (l:WriterLock) WHERE l.token IS NOT NULL RETURN count(l) AS n")[0]["n"] == 0
        assert graph_state(snapshot(db)) == graph_state(before), f"killed {delay} s after the moves began"
        assert_aggregates_current(db)
        assert_one_refers_to_per_mention(db)
    assert interrupted  # at least one kill landed mid-rollback


class _Killed(Exception):
    pass


def test_a_resolve_interrupted_mid_merge_resumes_to_the_uninterrupted_result(db, tmp_path, monkeypatch):
    """Killed after some of a pass's merge transactions committed, the next resolve finishes that
    pass with the merges it had decided (recorded before the first), not by deciding again on a
    partly merged graph (which ended with different clusters: 1,047 vs 1,056 entities)."""
    from kgres import schema
    from kgres.config import load_settings
    from kgres.evaluate.synth import generate

    generate(tmp_path / "g.jsonl", tmp_path / "gold.jsonl", 500, seed=3)
    small = merge._transactions
    monkeypatch.setattr(merge, "_transactions", lambda groups, size, members: small(groups, 5, members))
    query, calls, crash_at = type(db).query, [0], [None]

    def dying(self, name, **params):
        if name == "resolve_merge_groups":
            calls[0] += 1
            if calls[0] == crash_at[0]:
                raise _Killed()
        return query(self, name, **params)

    monkeypatch.setattr(type(db), "query", dying)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    resolve(db)
    uninterrupted = groups(db)
    schema.reset(db)
    schema.init(db, load_settings().schema_)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    crash_at[0], calls[0] = calls[0] // 2, 0  # half way through the merge transactions of the run
    with pytest.raises(_Killed):
        resolve(db)
    monkeypatch.setattr(type(db), "query", query)
    assert db.run("MATCH (p:MergePlan) RETURN count(p) AS n")[0]["n"] > 0
    resumed = resolve(db)
    assert resumed.resumed
    assert groups(db) == uninterrupted
    assert db.run("MATCH (p:MergePlan) RETURN count(p) AS n")[0]["n"] == 0
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_related_derived(db)


def test_score_pages_compute_what_the_database_would(db, tmp_path, monkeypatch):
    """The cosines, same-chunk flag and predicates between computed from each entity's sides (read
    once, kept across pages, evicted beyond SIDES_KEPT) equal Neo4j's per-pair answers, and a
    NOT_SAME_AS recorded between two mentions' first entities still separates the entities they are
    in after a merge. Pages of pairs held in memory compute the same rows."""
    from kgres.resolve.block import block
    from kgres.resolve.cluster import Evidence, Group
    from kgres.resolve.score import stage

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    db.run("MATCH (a:Mention {source_key: 'sh5'})-[:REFERS_TO]->(x), (b:Mention {source_key: 'my1'})-[:REFERS_TO]->(y) "
           "CREATE (x)-[:NOT_SAME_AS]->(y)")
    keep, gone = _entity(db, "sh1"), _entity(db, "sh5")  # the rejected entity is retired into another
    merge.apply_groups(db, [Group(members=(keep, gone), canonical=keep, confidence=0.9,
                                  evidence={gone: Evidence(linked_to=keep, score=0.9, rule="test")})],
                       "run-x", method="rules", decided_by="test")
    normalize(db)
    block(db, "run-pages")
    sherlock, mycroft = sorted([_entity(db, "sh1"), _entity(db, "my1")])
    db.run("MATCH (a:Entity {id: $a}), (b:Entity {id: $b}) WHERE NOT EXISTS { (a)-[:CANDIDATE]-(b) } "
           "CREATE (a)-[:CANDIDATE {run_id: 'run-pages', methods: ['test']}]->(b)", a=sherlock, b=mycroft)
    db.run("MATCH (a:Entity {id: $a}), (b:Entity {id: $b}) CREATE (b)-[:RELATED {predicate: 'BROTHER_OF'}]->(a), "
           "(a)-[:RELATED {predicate: 'KNOWS'}]->(b)", a=sherlock, b=mycroft)
    # another run's pairs between the same entities, and a pair already scored, are not read
    db.run("MATCH (a)-[c:CANDIDATE {run_id: 'run-pages'}]->(b) CREATE (a)-[:CANDIDATE {run_id: 'run-other'}]->(b)")
    scored = db.run("MATCH (a)-[c:CANDIDATE {run_id: 'run-pages'}]->(b) WHERE NOT (a.id = $a AND b.id = $b) "
                    "WITH a, b, c ORDER BY a.id, b.id LIMIT 1 SET c.score = 0.5 RETURN a.id AS a, b.id AS b",
                    a=sherlock, b=mycroft)[0]
    monkeypatch.setattr(stage, "SIDES_KEPT", 3)  # pages of a few pairs: most sides are evicted and read again
    pages = [page for page, _ in stage.pages(db, "run-pages", batch_size=4)]
    rows = [r for page in pages for r in page]
    assert len(pages) > 2
    assert len(rows) > 10
    expected = {(r["a"], r["b"]): r for r in db.run(
        "MATCH (a:Entity)-[c:CANDIDATE {run_id: 'run-pages'}]->(b:Entity) RETURN a.id AS a, b.id AS b, "
        "2 * vector.similarity.cosine(a.embedding, b.embedding) - 1 AS ego, "
        "2 * vector.similarity.cosine(a.context_embedding, b.context_embedding) - 1 AS neighbour, "
        "EXISTS { (a)<-[:REFERS_TO]-(:Mention)-[:IN_CHUNK]->(:Chunk)<-[:IN_CHUNK]-(:Mention)-[:REFERS_TO]->(b) } AS same_chunk, "
        "[(a)-[r:RELATED]-(b) | r.predicate] AS predicates")}
    expected.pop((scored["a"], scored["b"]))
    assert len(rows) == len({(r["a"], r["b"]) for r in rows})
    assert {(r["a"], r["b"]) for r in rows} == set(expected)
    for r in rows:
        want = expected[(r["a"], r["b"])]
        assert r["same_chunk"] == want["same_chunk"]
        assert sorted(r["predicates"]) == sorted(want["predicates"])
        for k in ("ego", "neighbour"):
            assert (r[k] is None) == (want[k] is None) and (r[k] is None or abs(r[k] - want[k]) < 1e-5), (k, r, want)
    assert {(r["a"], r["b"]) for r in rows if r["not_same_as"]} == {(sherlock, mycroft)}
    assert {(r["a"], r["b"]) for r in rows if r["predicates"]} == {(sherlock, mycroft)}
    assert any(r["same_chunk"] for r in rows) and any(not r["same_chunk"] for r in rows)
    in_memory = [page for page, _ in stage.pair_pages(db, sorted((r["a"], r["b"]) for r in rows), batch_size=4)]
    assert len(in_memory) > 2
    assert all(len({r["a"] for r in page} & {r["a"] for r in other}) == 0  # whole entities a page
               for i, page in enumerate(in_memory) for other in in_memory[i + 1:])
    assert sorted(({k: v for k, v in r.items() if k != "rel"} for r in rows), key=lambda r: (r["a"], r["b"])) == \
        [r for page in in_memory for r in page]
    # the match model's pages leave the topology cosine out (it does not weigh it), and nothing else
    plain = [r for page, _ in stage.pair_pages(db, sorted((r["a"], r["b"]) for r in rows), 4, structural=False)
             for r in page]
    assert any(r["structural"] is not None for page in in_memory for r in page)
    assert all(r["structural"] is None for r in plain)
    assert [{**r, "structural": None} for page in in_memory for r in page] == plain


def _edges(db, run: str) -> dict[tuple[str, str], dict]:
    """What the CANDIDATE edges of ``run`` say, by (a, b)."""
    return {(r["a"], r["b"]): r["c"] for r in db.run(
        "MATCH (a:Entity)-[c:CANDIDATE {run_id: $run}]->(b:Entity) "
        "RETURN a.id AS a, b.id AS b, c {.methods, .score, .band, .match_weight, .name_rule, .cannot_link, "
        ".signals_json} AS c", run=run)}


def test_pairs_scored_in_memory_are_written_as_the_database_path_scores_them(db, tmp_path):
    """A pass of the match model keeps its pairs in Python (propose, score_pairs) and writes each
    once: the edges carry what blocking, then scoring through the database, writes for the same
    pairs with the same model, and the outcomes clustering reads are what the edges say."""
    import json

    from kgres.resolve.block import block, propose
    from kgres.resolve.score.stage import load_ambiguity, score_model, score_pairs

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    block(db, "run-db")
    _, model = score_model(db, "run-db", ambiguity=load_ambiguity(db))
    proposed = propose(db)
    db.run("MATCH (e:Entity) WITH e ORDER BY e.id LIMIT 1 "
           "CREATE (e)-[:CANDIDATE {run_id: 'run-mem', methods: ['left by an interrupted pass']}]->(e)")
    stats, _, outcomes = score_pairs(db, "run-mem", proposed, ambiguity=load_ambiguity(db), model=model)

    # pages of a few pairs, the next page's sides read and the last batch written while Python works
    small, _, small_outcomes = score_pairs(db, "run-small", proposed, ambiguity=load_ambiguity(db), model=model,
                                           batch_size=3)

    through_db, in_memory = _edges(db, "run-db"), _edges(db, "run-mem")
    assert len(in_memory) == len(proposed) == stats.scored > 10
    assert in_memory == through_db == _edges(db, "run-small")
    assert small_outcomes == outcomes and small.bands == stats.bands
    assert {b for b, n in stats.bands.items() if n} >= {"auto", "reject"}
    # a reject's edge keeps no evidence (whether it was held back from auto is moot for it)
    assert all((c["signals_json"] is None) == (c["band"] == "reject") for c in in_memory.values())
    assert {(o["a"], o["b"]): (o["p"], o["band"], o["name_rule"], o["vetoed"],
                               o["capped"] if o["band"] != "reject" else None, o["signals"])
            for o in outcomes} == {
        p: (c["score"], c["band"], c["name_rule"], c["cannot_link"] is not None,
            "capped" in json.loads(c["signals_json"]) if c["signals_json"] else None,
            c["signals_json"] if c["band"] == "auto" else None)
        for p, c in in_memory.items()}


def test_titles_that_each_replace_a_word_are_scored_apart_and_persons_are_not(db, tmp_path):
    """A pair whose names share words and each has one of its own inside ("mining generalized / quantitative
    association rules") is held back from auto and marked ``apart`` (its groups stay apart in clustering), its
    edge saying why; two persons' names are judged by the person constraints instead."""
    from kgres.resolve.block import propose
    from kgres.resolve.score.stage import APART, load_ambiguity, score_pairs
    from tests.graphs import write_jsonl

    names = [("g", "mining generalized association rules", "CONCEPT"),
             ("q", "mining quantitative association rules", "CONCEPT"),
             ("m", "mining association rules", "CONCEPT"),
             ("x", "Anna Maria Lopez", "PERSON"), ("y", "Anna Sofia Lopez", "PERSON")]
    recs = [{"kind": "mention", "id": i, "name": n, "type": t} for i, n, t in names]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "t.jsonl", recs))
    normalize(db)
    embed(db)
    _, _, outcomes = score_pairs(db, "run-apart", propose(db), ambiguity=load_ambiguity(db))
    by_pair = {frozenset((o["a"], o["b"])): o for o in outcomes}
    titles = by_pair[frozenset(("ent:jsonl:g", "ent:jsonl:q"))]
    assert titles["apart"] and titles["capped"] and titles["band"] != "auto"
    assert not any(o["apart"] for k, o in by_pair.items() if "ent:jsonl:m" in k)   # a word added
    assert not by_pair[frozenset(("ent:jsonl:x", "ent:jsonl:y"))]["apart"]
    edge = _edges(db, "run-apart")[("ent:jsonl:g", "ent:jsonl:q")]
    assert edge["band"] == "reject" or json.loads(edge["signals_json"])["capped"] == APART


def test_a_score_stage_keeps_only_the_outcomes_clustering_reads(db, tmp_path):
    """A pass holds its outcomes until it clusters: with ``keep`` (the pipeline's is
    ``clustering_reads``) score_pairs returns only the pairs clustering does something with, the
    others (vetoed, or names that say nothing) are left out, every pair is still written, and the
    groups are those of all outcomes."""
    from kgres.resolve.block import propose
    from kgres.resolve.cluster import cluster_rows, clustering_reads
    from kgres.resolve.score.stage import load_ambiguity, score_pairs

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    proposed = propose(db)
    stats, model, every = score_pairs(db, "run-all", proposed, ambiguity=load_ambiguity(db))
    kept_stats, _, kept = score_pairs(db, "run-kept", proposed, ambiguity=load_ambiguity(db), model=model,
                                      keep=clustering_reads)
    assert len(every) == len(proposed) == kept_stats.scored == len(_edges(db, "run-kept"))
    assert kept == [o for o in every
                    if clustering_reads(o["vetoed"], o["band"], o["name_rule"], o["capped"], o["apart"])]
    assert 0 < len(kept) < len(every) and any(o["vetoed"] for o in every)
    assert kept_stats.bands == stats.bands
    groups = sorted((g.canonical, tuple(g.members)) for g in cluster_rows(db, every)[0])
    assert groups and groups == sorted((g.canonical, tuple(g.members)) for g in cluster_rows(db, kept)[0])


def test_a_later_pass_reuses_only_the_comparisons_whose_inputs_are_unchanged(db, tmp_path):
    """The passes of one resolve share a PairMemo: scoring the same pairs again reuses every pair's
    comparisons and writes no edge an earlier pass wrote as it is; after one entity's description
    changes and a new "Holmes" joins the holder table, exactly the pairs of that entity and those
    whose names ask the table about "Holmes" are compared again, and each pair's newest edge equals
    what scoring without the memo writes."""
    from kgres.resolve.block import propose
    from kgres.resolve.score.memo import PairMemo
    from kgres.resolve.score.stage import load_ambiguity, score_pairs

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    embed(db)
    proposed = propose(db)
    memo = PairMemo()
    first, model, _ = score_pairs(db, "r1", proposed, ambiguity=load_ambiguity(db), memo=memo)
    assert (memo.hits, memo.misses, first.unchanged) == (0, len(proposed), 0) and len(proposed) > 10
    again, _, outcomes = score_pairs(db, "r2", proposed, ambiguity=load_ambiguity(db), model=model, memo=memo)
    assert (memo.hits, memo.misses) == (len(proposed), len(proposed))
    assert again.unchanged == len(proposed) and _edges(db, "r2") == {} and len(_edges(db, "r1")) == len(proposed)
    assert again.bands == first.bands and {o["band"] for o in outcomes} >= {"auto", "reject"}
    first_edges = _edges(db, "r1")
    assert all(o["signals"] == first_edges[(o["a"], o["b"])]["signals_json"] for o in outcomes if o["band"] == "auto")

    apple = _entity(db, "ap2")
    db.run("MATCH (e:Entity {id: $id}) SET e.description = 'the second Apple computer'", id=apple)
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "more.jsonl", [
        {"kind": "chunk", "id": "c11", "text": "chunk 11"},
        {"kind": "mention", "id": "eh1", "name": "Ernest Holmes", "type": "PERSON", "chunk_id": "c11"}]))
    normalize(db)
    changed = {p for p, c in memo.held().items() if apple in p or c.short_key == ("p", "holmes")}
    assert any(apple not in p for p in changed) and any(apple in p for p in changed)
    score_pairs(db, "r3", proposed, ambiguity=load_ambiguity(db), model=model, memo=memo)
    assert (memo.hits, memo.misses) == (2 * len(proposed) - len(changed), len(proposed) + len(changed))
    score_pairs(db, "r3-plain", proposed, ambiguity=load_ambiguity(db), model=model)
    newest = {**_edges(db, "r1"), **_edges(db, "r3")}
    assert 0 < len(_edges(db, "r3")) < len(proposed) and newest == _edges(db, "r3-plain")


def test_the_passes_of_a_resolve_read_again_only_the_sides_their_merges_changed(db, tmp_path, monkeypatch):
    """The passes of one resolve share the score sides they read: a later pass reads only what the
    merges before it changed (the merged entities and the neighbours of what they merged into), and
    every side it takes from what is kept equals the database's current one, through a whole resolve
    and two increments; a resolve that reads every side again merges into the same groups."""
    import numpy as np

    from kgres.evaluate.synth import generate, increments
    from kgres.resolve import pipeline
    from kgres.resolve.score.stage import VECTORS, Sides

    # seed 7: four automatic merges in the first scored pass, so later passes follow. Seed 5 had one,
    # at 0.902 against the 0.9 floor, and a model retrained on slightly other pairs put it under.
    generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 1200, seed=7)
    parts = increments(tmp_path / "g.jsonl", tmp_path / "parts", 4)
    for part in parts[:3]:
        ingest.ingest(db, "jsonl", part)
    load, read, reads, checked = Sides.load, Sides.read, [], []

    def checked_load(self, db_, ids, ready=()):
        kept = set(ids) - set(self.missing(ids))
        out = load(self, db_, ids, ready)
        fresh = Sides(read(db_, sorted(kept), structural=False), structural=False)
        for i in kept:  # a kept side is the database's own, vectors and chunks too
            assert out._rows[i] == fresh._rows[i] and out._chunks[i] == fresh._chunks[i], i
            for k in range(len(VECTORS)):
                x, y = out._vectors[k].get(i), fresh._vectors[k].get(i)
                assert (x is None) == (y is None) and (x is None or np.array_equal(x, y)), (i, VECTORS[k])
        checked.append(len(kept))
        return out

    def counted_read(db_, ids, structural=True):
        reads.append(len(ids))
        return read(db_, ids, structural)

    monkeypatch.setattr(Sides, "load", checked_load)
    monkeypatch.setattr(Sides, "read", staticmethod(counted_read))
    shared = resolve(db, new=False)
    shared_groups, shared_reads = groups(db), sum(reads)
    assert shared.passes >= 4 and sum(checked) > 0, shared  # later passes took sides they held
    assert_related_derived(db)
    merge.rollback(db, shared.run_id)
    reads.clear()
    plain = pipeline.score_pairs
    monkeypatch.setattr(pipeline, "score_pairs", lambda *a, sides=None, **k: plain(*a, **k))
    again = resolve(db, new=False)  # every pass reads every side its pairs need
    assert groups(db) == shared_groups and again.merged_entities == shared.merged_entities
    assert sum(reads) > shared_reads
    monkeypatch.setattr(pipeline, "score_pairs", plain)
    for part in parts[3:]:
        ingest.ingest(db, "jsonl", part)
        checked.clear()
        assert resolve(db).incremental and sum(checked) > 0  # an increment's later passes hold current sides too
        assert_related_derived(db)


def test_the_pair_memo_holds_at_most_its_limit_dropping_the_longest_held():
    from kgres.resolve.score.memo import Compared, PairMemo

    memo = PairMemo(limit=2)
    c = Compared(1, 2, False, None, None, b"\x00", (), None, False, 0.5, None)
    for pair in (("a", "b"), ("a", "c"), ("a", "b"), ("b", "c")):
        memo.put(*pair, c)
        memo.written(*pair, 7)
    assert set(memo.held()) == {("a", "b"), ("b", "c")}
    assert memo.get("a", "b", 1, 2, False, 0.5, None, None) == c
    assert memo.get("a", "c", 1, 2, False, 0.5, None, None) is None
    assert not memo.written("a", "c", 7) and memo.written("b", "c", 7)
    assert not memo.written("a", "c", 7)  # dropped, it keeps no edge: edges stay within the limit
    memo.forget({"c"})
    assert set(memo.held()) == {("a", "b")} and not memo.written("b", "c", 7)
    # past a larger limit the longest held go a tenth of the limit at a time (one scan, not one per put)
    memo, pairs = PairMemo(limit=10), [("a", f"b{i:02d}") for i in range(25)]
    for pair in pairs:
        memo.put(*pair, c)
        assert len(memo) <= 10
    assert list(memo.held()) == pairs[-9:]  # at 11 the two held longest go, and again at every other put


def test_the_newest_pass_of_the_newest_resolve_speaks_for_a_pair(db):
    """A pair's stored verdict (explain, the review queue) is the one of the newest resolve's newest
    pass that wrote it: pass 10 after pass 9, though text order puts "run.10" first."""
    from kgres.curate.explain import pair_levels

    db.run("CREATE (a:Entity {id: 'a', name: 'Ada'}), (b:Entity {id: 'b', name: 'Ada'})")
    for run, name in (("run-1.11", "typo"), ("run-2.9", "none"), ("run-2.10", "same_key"), ("run-2", "acronym")):
        db.run("MATCH (a:Entity {id: 'a'}), (b:Entity {id: 'b'}) "
               "CREATE (a)-[:CANDIDATE {run_id: $run, match_weight: 1.0, signals_json: $signals}]->(b)",
               run=run, signals=f'{{"levels": {{"name": "{name}"}}}}')
    assert pair_levels(db, "a", "b") == {"name": "same_key"}


def _entity(db, source_key: str) -> str:
    return db.run("MATCH (:Mention {source_key: $k})-[:REFERS_TO]->(e:Entity) RETURN e.id AS id", k=source_key)[0]["id"]


def test_a_focused_pass_scores_again_the_name_alike_partners_of_what_merged(db):
    """After a merge, the next pass pairs again each entity that had a candidate pair whose names say
    something with a merged entity (either side, retired or canonical) in this resolve's runs, with
    what that entity is now part of ("H. Lamport" had a pair with a copy of "Hedy Lamport" retired
    into another). Pairs of other runs, pairs whose names share nothing, an entity's pair with its
    own canonical, and a retired entity whose canonical is gone, do not count."""
    from kgres.resolve.pipeline import UNKNOWN_RULES

    db.run("""
        CREATE (c:Entity {id: 'c', name: 'Hedy Lamport'}),
               (r:RetiredEntity {id: 'r', name: 'Hedy Lamport', merged_into: 'c'}),
               (g:RetiredEntity {id: 'g', name: 'Lamport', merged_into: 'gone'}),
               (x:Entity {id: 'x', name: 'H. Lamport'}), (y:Entity {id: 'y', name: 'Lamport'}),
               (z:Entity {id: 'z', name: 'Bell Labs'}), (w:Entity {id: 'w', name: 'Dr. Lamport'}),
               (v:Entity {id: 'v', name: 'Lamport Clock'}), (u:Entity {id: 'u', name: 'L. Lamport'})
        CREATE (x)-[:CANDIDATE {run_id: 'run.2', name_rule: 'person_name'}]->(r),
               (c)-[:CANDIDATE {run_id: 'run.2', name_rule: 'person_name'}]->(y),
               (r)-[:CANDIDATE {run_id: 'run', name_rule: 'same_key'}]->(c),
               (c)-[:CANDIDATE {run_id: 'run.2', name_rule: 'none'}]->(z),
               (c)-[:CANDIDATE {run_id: 'older', name_rule: 'person_name'}]->(w),
               (r)-[:CANDIDATE {run_id: 'run.2'}]->(v),
               (u)-[:CANDIDATE {run_id: 'run.2', name_rule: 'person_name'}]->(g)""")
    rows = db.read("resolve_focus_partner_pairs", ids=["c", "r", "g"], unknown=UNKNOWN_RULES,
                   run_ids=["run", "run.2"])
    assert sorted((p, r["entity"]) for r in rows for p in r["partners"]) == [("x", "c"), ("y", "c")]
    assert len(rows) == 1  # one row per entity
    assert set(UNKNOWN_RULES) == {"none", "overlap_20", "disjoint"}


def test_a_focused_pass_looks_again_at_the_neighbours_the_merged_away_entities_brought(db):
    """After a pass merges "Dr. Watson" into "Watson", the next pass re-examines "Watson" and the
    entities related through the active triples of the mentions that moved in that pass (they now
    share "Watson" with its older neighbours, and their neighbour list names another entity); the
    older neighbours of "Watson", a triple filtered out, and mentions moved by another run do not
    count."""
    db.run("""
        CREATE (c:Entity {id: 'c', name: 'Watson'}), (h1:Entity {id: 'h1', name: 'Holmes'}),
               (h2:Entity {id: 'h2', name: 'Mr. Holmes'}), (h3:Entity {id: 'h3', name: 'Hudson'}),
               (h4:Entity {id: 'h4', name: 'Lestrade'}), (q:Entity {id: 'q', name: 'Baker Street'})
        CREATE (w1:Mention {id: 'w1', name: 'Watson'})-[:REFERS_TO {run_id: 'ingest'}]->(c),
               (w2:Mention {id: 'w2', name: 'Dr. Watson'})-[:REFERS_TO {run_id: 'run.2'}]->(c),
               (w3:Mention {id: 'w3', name: 'John Watson'})-[:REFERS_TO {run_id: 'run'}]->(c),
               (m1:Mention {id: 'm1', name: 'Holmes'})-[:REFERS_TO {run_id: 'ingest'}]->(h1),
               (m2:Mention {id: 'm2', name: 'Mr. Holmes'})-[:REFERS_TO {run_id: 'ingest'}]->(h2),
               (m3:Mention {id: 'm3', name: 'Hudson'})-[:REFERS_TO {run_id: 'ingest'}]->(h3),
               (m4:Mention {id: 'm4', name: 'Lestrade'})-[:REFERS_TO {run_id: 'ingest'}]->(h4),
               (m5:Mention {id: 'm5', name: 'Baker Street'})-[:REFERS_TO {run_id: 'ingest'}]->(q)
        CREATE (w1)-[:RELATES {id: 't1', status: 'active'}]->(m1),
               (m2)-[:RELATES {id: 't2', status: 'active'}]->(w2),
               (w2)-[:RELATES {id: 't3', status: 'filtered'}]->(m3),
               (w3)-[:RELATES {id: 't4', status: 'active'}]->(m4),
               (q)-[:RELATED {predicate: 'HOME_OF'}]->(c)""")
    rows = db.read("resolve_focus_neighbours", ids=["c"], run_id="run.2")
    assert [r["id"] for r in rows] == ["c", "h2"]
    assert [r["id"] for r in db.read("resolve_focus_neighbours", ids=["c"], run_id="run")] == ["c", "h4"]


def test_an_interrupted_focused_pass_resumes_with_the_pairs_it_carried(db):
    """A focused pass stores the pairs it scores besides its focus's (the partners' pairs) on its run,
    as it stores its focus, so that the resolve that finishes it scores the same pairs; a pass
    without any stores none."""
    from kgres import runs

    runs.start(db, "run-a.3", "{}", "default", parent="run-a", focus=["e1"], carried=[("e1", "e2"), ("e3", "e4")])
    row = db.read("run_unfinished", strategies=["default"])[0]
    assert (row["id"], row["focus"], row["carried"]) == ("run-a.3", ["e1"], [["e1", "e2"], ["e3", "e4"]])
    runs.finish(db, "run-a.3", "{}")
    runs.start(db, "run-b", "{}", "default")
    row = db.read("run_unfinished", strategies=["default"])[0]
    assert (row["id"], row["focus"], row["carried"]) == ("run-b", None, [])
