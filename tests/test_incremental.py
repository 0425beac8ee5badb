"""Incremental resolution (``kgres resolve --new``) on the real database: new mentions join the
resolved graph through the same model and constraints, as one recorded, undoable run, and a graph
resolved in increments ends close to one resolved in one run."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from kgres import ingest
from kgres.cli import main
from kgres.curate.review import decide
from kgres.db import Database
from kgres.db.database import MERGE_REPLAN_SHARE, REPLAN_SHARE
from kgres.errors import KgresError
from kgres.evaluate.metrics import pairwise
from kgres.evaluate.synth import generate, gold_of, increments
from kgres.resolve import merge, resolve
from kgres.resolve.embed import embed
from kgres.resolve.normalize import normalize
from tests.graphs import (assert_aggregates_current, assert_contexts_current, assert_one_refers_to_per_mention,
                          assert_related_derived, graph_state, snapshot, write_jsonl)
from tests.test_resolve import MENTIONS, TRIPLES, fixture, groups


def entity_of(db, key: str) -> str:
    return db.run("MATCH (:Mention {source_key: $k})-[:REFERS_TO]->(e:Entity) RETURN e.id AS id", k=key)[0]["id"]


def new_mentions(tmp_path, *mentions: tuple[str, str, str]):
    recs = [{"kind": "chunk", "id": "c20", "text": "a later chunk"}]
    recs += [{"kind": "mention", "id": i, "name": n, "type": t, "chunk_id": "c20"} for i, n, t in mentions]
    return write_jsonl(tmp_path / "new.jsonl", recs)


def test_new_mentions_join_the_resolved_entities_and_nothing_else_is_reexamined(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    first = resolve(db)
    before = groups(db)
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "Mr. Sherlock Holmes", "PERSON"),
                                            ("n2", "Large Language Model", "CONCEPT")))
    inc = resolve(db)
    assert inc.incremental and inc.new_entities == 2 and inc.model_id == first.model_id and not inc.model_trained
    assert inc.redecided == 0  # a new copy of a holder's own name opens no short form
    assert entity_of(db, "n1") == entity_of(db, "sh1")
    assert entity_of(db, "n2") == entity_of(db, "llm1")
    # every candidate pair of the increment has a new mention's entity (or what it merged into) on one side
    touched = {entity_of(db, "n1"), entity_of(db, "n2"), "ent:jsonl:n1", "ent:jsonl:n2"}
    pairs = db.run("MATCH (a)-[c:CANDIDATE]->(b) WHERE c.run_id STARTS WITH $run "
                   "RETURN a.id AS a, b.id AS b", run=inc.run_id)
    assert pairs and all(p["a"] in touched or p["b"] in touched for p in pairs)
    # the rest of the graph is as the first resolve left it
    assert {g for g in groups(db) if not g & {"n1", "n2"}} == {g for g in before if not g & {"sh1", "llm1"}}
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert resolve(db).merged_entities == 0  # nothing new: a fixed point


def test_a_new_copy_of_a_name_the_graph_had_is_that_entity_and_not_examined_again(db, tmp_path):
    """A new "iPhone 7" collapses into the entity of that name, whose candidates ("iPhone 8") the last
    resolve scored: the increment scores no pair of it (only new names that stand on their own are)."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    iphone = entity_of(db, "ip7")
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "iPhone 7", "PRODUCT")))
    inc = resolve(db, new=True)
    assert inc.incremental and inc.new_entities == 1 and inc.collapsed_entities == 1
    assert entity_of(db, "n1") == iphone
    assert inc.candidate_pairs == 0
    assert not db.run("MATCH ()-[c:CANDIDATE]->() WHERE c.run_id STARTS WITH $run RETURN c", run=inc.run_id)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)


def test_an_increment_whose_copies_retire_a_tenth_of_the_entities_keeps_the_cached_plans(db, tmp_path, monkeypatch):
    """A replan makes every later query plan again (1,012 mentions into 100k: 2-3 s of 11): new copies
    that retire a tenth of the entities leave the cached plans as they are (a merge replans from
    MERGE_REPLAN_SHARE of the entities on)."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    entities = db.count("Entity")
    single = db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity) WITH e, collect(m) AS ms WHERE size(ms) = 1 "
                    "RETURN ms[0].name AS name, ms[0].type AS type, e.id AS id ORDER BY id")
    copies = single[:-(-entities // 10)]
    # the old rule's count (the copies and their canonicals) against 5% would replan; the new one does not
    assert 2 * len(copies) >= REPLAN_SHARE * entities and len(copies) < MERGE_REPLAN_SHARE * entities
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, *((f"n{i}", c["name"], c["type"]) for i, c in enumerate(copies))))
    replans = []  # (that import replanned: a tenth more nodes in a small graph)
    replan = Database.replan
    monkeypatch.setattr(Database, "replan", lambda self: (replans.append(1), replan(self)))
    inc = resolve(db, new=True)
    assert inc.incremental and inc.collapsed_entities == len(copies)
    assert [entity_of(db, f"n{i}") for i in range(len(copies))] == [c["id"] for c in copies]
    assert replans == []
    assert_one_refers_to_per_mention(db)


def test_a_new_mention_that_could_link_two_entities_goes_through_the_rules(db, tmp_path):
    """A bare "Holmes" arriving late could join Sherlock or Mycroft; it must not fuse the brothers."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    assert entity_of(db, "sh1") != entity_of(db, "my1")
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "Holmes", "PERSON"), ("n2", "Mycroft", "PERSON")))
    inc = resolve(db)
    assert inc.incremental
    assert entity_of(db, "sh1") != entity_of(db, "my1")
    assert entity_of(db, "n2") == entity_of(db, "my1") or entity_of(db, "n2") == "ent:jsonl:n2"
    assert entity_of(db, "n2") != entity_of(db, "sh1")


def test_a_new_copy_of_a_name_joins_its_entity_whatever_the_entity_s_other_names_say(db, tmp_path):
    """An entity that took a spelling of its name ("Hedy Bengo" into "Hedy Bengio") takes a later copy
    of its own name by collapse, as one run collapsing the copies first would; read against the
    spelling, the copy met a rule veto (different surnames) and stayed a second "Hedy Bengio"."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "hedy.jsonl", [
        {"kind": "chunk", "id": "c30", "text": "Hedy Bengio and Hedy Bengo"},
        {"kind": "mention", "id": "hb1", "name": "Hedy Bengio", "type": "PERSON", "chunk_id": "c30"},
        {"kind": "mention", "id": "hb2", "name": "Hedy Bengo", "type": "PERSON", "chunk_id": "c30"}]), source="hedy")
    resolve(db)
    if entity_of(db, "hb1") != entity_of(db, "hb2"):
        decide(db, "accept", entity_of(db, "hb1"), entity_of(db, "hb2"))  # a person says the spelling is hers
    hedy = entity_of(db, "hb1")
    assert db.run("MATCH (e:Entity {id: $id}) RETURN e.aliases AS a", id=hedy)[0]["a"] == ["Hedy Bengio", "Hedy Bengo"]
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "Hedy Bengio", "PERSON")))
    inc = resolve(db, new=True)
    assert inc.incremental and inc.collapsed_entities == 1
    assert entity_of(db, "n1") == hedy
    assert db.run("MATCH (e:Entity {name: 'Hedy Bengio'}) RETURN count(e) AS n")[0]["n"] == 1
    assert_one_refers_to_per_mention(db)


def without_jane(tmp_path, *also: str):
    """The fixture without "Jane Smith" (and the mentions ``also``): "J. Smith" has one holder, John Smith."""
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(1, 11)]
    recs += [{"kind": "mention", "id": i, "name": n, "type": t, "chunk_id": c} for i, n, t, c in MENTIONS
             if i not in ("js3", *also)]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o} for s, p, o in TRIPLES]
    return write_jsonl(tmp_path / "no-jane.jsonl", recs)


def later(tmp_path, key: str):
    """One mention of the fixture on its own, as a later import."""
    return write_jsonl(tmp_path / f"{key}.jsonl", [{"kind": "mention", "id": i, "name": n, "type": t, "chunk_id": c}
                                                    for i, n, t, c in MENTIONS if i == key])


def test_a_short_form_a_new_name_makes_ambiguous_is_scored_again(db, tmp_path):
    """"J. Smith" merged into John Smith, the only J. Smith the graph had. A later "Jane Smith" makes
    the short form ambiguous: the increment takes it back out and scores it again, and it stays apart
    from both, as one run over the final graph leaves it (test_known_answers); rollback is exact."""
    ingest.ingest(db, "jsonl", without_jane(tmp_path))
    resolve(db)
    assert entity_of(db, "js1") == entity_of(db, "js2")
    ingest.ingest(db, "jsonl", later(tmp_path, "js3"))
    normalize(db)
    embed(db)
    before = graph_state(snapshot(db))
    inc = resolve(db)
    assert inc.incremental and inc.redecided == 1
    assert entity_of(db, "js1") not in {entity_of(db, "js2"), entity_of(db, "js3")}
    trail = db.run("MATCH (:Mention {source_key: 'js1'})-[r:REFERS_TO]->() RETURN r.method AS method, "
                   "r.run_id AS run, r.decided_by AS who, r.evidence AS evidence")[0]
    assert (trail["method"], trail["run"], trail["who"]) == ("redecide", inc.run_id, "kgres resolve")
    assert json.loads(trail["evidence"])["holders"] == [["john smith"], ["jane smith"]]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    merge.rollback(db, inc.run_id)
    assert graph_state(snapshot(db)) == before
    assert entity_of(db, "js1") == entity_of(db, "js2")


def test_redecide_asks_only_names_the_graph_did_not_carry(db, tmp_path):
    """A new copy of "John Smith" joins the holder group the graph has, so it opens no short form:
    redecide reads the short forms of the two new "Jane Smith" mentions only (both new, neither
    carried outside the increment), not the copy's, nor a one-word name's."""
    ingest.ingest(db, "jsonl", without_jane(tmp_path))
    resolve(db)
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "John Smith", "PERSON"), ("n2", "Jane Smith", "PERSON"),
                                            ("n3", "Jane Smith", "PERSON"), ("n4", "Smith", "PERSON")))
    ids = ["ent:jsonl:n1", "ent:jsonl:n2", "ent:jsonl:n3", "ent:jsonl:n4"]
    normalize(db, ids=ids)
    rows = db.read("resolve_redecide_names", ids=ids)
    assert sorted(r["core"] for r in rows) == ["jane smith", "jane smith"]


def test_an_untyped_name_part_a_new_name_makes_ambiguous_is_scored_again(db, tmp_path):
    """Open-IE phrases carry no type: "Gates", the only name part of "Bill Gates" in the graph, merged
    there. A later "Gates Foundation" begins with it, as often: the increment takes "Gates" back out
    (asked under its singular key "gate", which the Foundation's first word now holds too) and scores
    it again, as one run over the final graph would; rollback is exact."""
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(4)]
    recs += [{"kind": "mention", "id": f"b{i}", "name": "Bill Gates", "chunk_id": f"c{i}"} for i in range(2)]
    recs += [{"kind": "mention", "id": f"g{i}", "name": "Gates", "chunk_id": f"c{i + 2}"} for i in range(2)]
    recs += [{"kind": "mention", "id": f"m{i}", "name": "Microsoft", "chunk_id": f"c{i}"} for i in range(4)]
    recs += [{"kind": "triple", "subject": s, "predicate": "FOUNDED", "object": f"m{i}"}
             for i, s in enumerate(("b0", "b1", "g0", "g1"))]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "gates.jsonl", recs))
    resolve(db)
    assert entity_of(db, "g0") == entity_of(db, "g1") == entity_of(db, "b0")
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, *((f"f{i}", "Gates Foundation", None) for i in range(4))))
    normalize(db)
    embed(db)  # derived data a run writes: snapshot with it in place
    before = graph_state(snapshot(db))
    inc = resolve(db, new=True)
    assert inc.incremental and inc.redecided == 1
    moves = db.run("MATCH (:Mention {source_key: 'g0'})-[r:REFERS_TO|REFERRED_TO]->() WHERE r.run_id STARTS WITH $run "
                   "RETURN r.method AS method", run=inc.run_id)
    assert "redecide" in {m["method"] for m in moves}
    # scored again, it goes where its context puts it: "Gates" founded Microsoft, as Bill Gates did
    assert entity_of(db, "g0") == entity_of(db, "g1") == entity_of(db, "b0") != entity_of(db, "f0")
    assert_aggregates_current(db)
    merge.rollback(db, inc.run_id)
    assert graph_state(snapshot(db)) == before


def test_a_person_s_merge_of_a_short_form_is_never_taken_back(db, tmp_path):
    ingest.ingest(db, "jsonl", without_jane(tmp_path, "js1"))
    resolve(db)
    ingest.ingest(db, "jsonl", later(tmp_path, "js1"))
    decide(db, "accept", entity_of(db, "js1"), entity_of(db, "js2"))
    ingest.ingest(db, "jsonl", later(tmp_path, "js3"))
    inc = resolve(db, new=True)
    assert inc.incremental and inc.redecided == 0
    assert entity_of(db, "js1") == entity_of(db, "js2")


def test_rollback_of_an_incremental_run_is_exact(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "Mr. Sherlock Holmes", "PERSON"),
                                            ("n2", "LLM", "CONCEPT")))
    normalize(db)  # keys and text embeddings are derived data a run writes; snapshot with them in place
    embed(db)
    before = graph_state(snapshot(db))
    inc = resolve(db, new=True)
    assert inc.merged_entities > 0
    merge.rollback(db, inc.run_id)
    assert graph_state(snapshot(db)) == before
    again = resolve(db)  # the new mentions are new again
    assert again.incremental and again.new_entities == 2


@pytest.mark.parametrize("whole_share", [0.1, 2.0], ids=["whole-graph-or-around", "around-only"])
def test_rollbacks_of_an_increment_leave_the_context_embeddings_of_the_graph_they_restore(db, tmp_path, monkeypatch,
                                                                                           whole_share):
    """An increment moves its new entities' edges onto the entities they join; both rollbacks (the
    resolve's, then the import's) give the neighbourhoods back, and their context embeddings with
    them: the next increment (which recomputes only around its new entities) scores against the
    graph as it is, so the same increment gives the same pairs again."""
    from kgres.ingest import rollback as ingest_rollback
    from kgres.resolve import embed as embed_module

    monkeypatch.setattr(embed_module, "CONTEXT_WHOLE_SHARE", whole_share)
    generate(tmp_path / "g.jsonl", tmp_path / "gold.jsonl", 600, seed=3)
    base, later_part = increments(tmp_path / "g.jsonl", tmp_path / "parts", 2)
    ingest.ingest(db, "jsonl", base)
    resolve(db, new=False)
    assert_contexts_current(db)
    added = ingest.ingest(db, "jsonl", later_part)
    normalize(db)
    embed(db)  # the whole recompute the increment starts from, with the new entities in place
    pairs = "MATCH ()-[c:CANDIDATE]->() WHERE c.run_id STARTS WITH $run RETURN count(c) AS n"
    first = resolve(db, new=True)
    assert first.incremental and first.merged_entities > 0
    scored = db.run(pairs, run=first.run_id)[0]["n"]
    merge.rollback(db, first.run_id)
    assert_contexts_current(db)
    again = resolve(db, new=True)
    assert (again.merged_entities, db.run(pairs, run=again.run_id)[0]["n"]) == (first.merged_entities, scored)
    merge.rollback(db, again.run_id)
    ingest_rollback.rollback(db, added.run_id)
    assert_contexts_current(db)


def test_a_rollback_killed_before_its_context_embeddings_leaves_them_to_its_rerun(db, tmp_path, monkeypatch):
    """The entities a rollback refreshes are marked :ContextStale before their RELATED edges are
    rebuilt: killed before their context embeddings were recomputed, the rollback's rerun (or the
    next command that refreshes) recomputes them and clears the mark."""
    from kgres.resolve import merge as merge_module

    generate(tmp_path / "g.jsonl", tmp_path / "gold.jsonl", 400, seed=4)
    base, later_part = increments(tmp_path / "g.jsonl", tmp_path / "parts", 2)
    ingest.ingest(db, "jsonl", base)
    resolve(db, new=False)
    ingest.ingest(db, "jsonl", later_part)
    inc = resolve(db, new=True)
    assert inc.merged_entities > 0

    def killed(*_a, **_k):
        raise KeyboardInterrupt("killed")

    monkeypatch.setattr(merge_module, "refresh_context", killed)
    with pytest.raises(KeyboardInterrupt):
        merge.rollback(db, inc.run_id)
    marked = "MATCH (e:ContextStale) RETURN count(e) AS n"
    assert db.run(marked)[0]["n"] > 0 and db.run("MATCH (e:Stale) RETURN count(e) AS n")[0]["n"] == 0
    monkeypatch.undo()
    merge.rollback(db, inc.run_id)  # the rerun
    assert db.run(marked)[0]["n"] == 0
    assert_contexts_current(db)


HOLDER_NAMES = [("Sherlock Holmes", "PERSON"), ("Sherlock Holmes", "PERSON"), ("Mycroft Holmes", "PERSON"),
                ("Holmes", "PERSON"), ("John Smith", "PERSON"), ("Jane Smith", "PERSON"), ("J. Smith", "PERSON"),
                ("Jane Smyth", "PERSON"), ("John F", "PERSON"), ("Young Scrooge", "PERSON"),
                ("Advanced United Robotics", "ORGANIZATION"), ("Applied United Robotics", "ORGANIZATION"),
                ("AUR", "ORGANIZATION"), ("Smith", "PERSON"), ("Baker Street", "GEO")]


def test_the_holder_table_read_key_by_key_answers_as_the_whole_table(db, tmp_path):
    """An increment reads the short forms it asks about from the indexes, not every multi-word name
    of the graph; each answer (holder groups, which dominates, the memo's version) is the whole
    table's, for keys with holders, keys without, and names that hold none."""
    from kgres.resolve.ambiguity import short_key
    from kgres.resolve.normalize import name_keys
    from kgres.resolve.score import load_ambiguity

    recs = [{"kind": "chunk", "id": "c1", "text": "names"}]
    recs += [{"kind": "mention", "id": f"m{i}", "name": n, "type": t, "chunk_id": "c1"}
             for i, (n, t) in enumerate(HOLDER_NAMES)]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "names.jsonl", recs))
    normalize(db)
    whole, lazy = load_ambiguity(db), load_ambiguity(db, lazy=True)
    keys = {short_key(k.tokens, k.norm_type) for k in (name_keys(n, t) for n, t in HOLDER_NAMES)} - {None}
    keys |= {("p", "john"), ("p", "f"), ("i", "m", "holmes"), ("p", "nobody"), ("a", "ORGANIZATION", "xyz")}
    assert lazy.groups(("p", "holmes")) == [{"sherlock holmes"}, {"mycroft holmes"}]
    for key in sorted(keys):
        assert lazy.groups(key) == whole.groups(key), key
        assert lazy.version(key) == whole.version(key), key
        for core in {c for g in whole.groups(key) for c in g}:
            assert lazy.dominates(key, core) == whole.dominates(key, core), (key, core)
    assert whole.groups(("a", "ORGANIZATION", "aur")) and whole.groups(("i", "j", "smith"))


def test_an_increment_keys_the_new_entities_only_unless_the_graph_s_keys_are_stale(db, tmp_path):
    """The table read key by key finds holders by the keys normalize writes: an increment after an
    upgrade of the key rules (or a change of strip_legal_suffixes) keys every entity first, and gives
    the mentions an older kgres imported their blocking values (attribute and code blocking read them)."""
    from kgres.resolve.normalize import keys_version

    stale = "MATCH (e:Entity) WHERE e.key_stamp IS NULL OR NOT e.key_stamp ENDS WITH $v RETURN count(e) AS n"
    old_keys = "MATCH (e:Entity) SET e.key_stamp = e.key_stamp + 'old' REMOVE e.key_first, e.key_last"
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    db.run(old_keys)
    unvalued = "MATCH (m:Mention) WHERE m.block_values IS NULL RETURN count(m) AS n"
    db.run("MATCH (m:Mention) REMOVE m.block_values")  # an older kgres imported them without
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n1", "Mr. Sherlock Holmes", "PERSON")))
    assert resolve(db).incremental
    assert db.run(stale, v=keys_version(False))[0]["n"] > 0  # the last resolve's keys were current
    assert db.run(unvalued)[0]["n"] > 0
    db.run("MATCH (r:ResolutionRun) SET r.keys = '0v1'")  # as a resolve of an older kgres left them
    ingest.ingest(db, "jsonl", new_mentions(tmp_path, ("n2", "Holmes", "PERSON")))
    inc = resolve(db)
    assert inc.incremental
    assert db.run(stale, v=keys_version(False))[0]["n"] == 0
    assert db.run(unvalued)[0]["n"] == 0
    assert db.run("MATCH (e:Entity) WHERE e.key_core = 'mycroft holmes' RETURN e.key_last AS w")[0]["w"] == "holmes"
    assert db.run("MATCH (r:ResolutionRun {id: $id}) RETURN r.keys AS k", id=inc.run_id)[0]["k"] == keys_version(False)


def test_new_refuses_what_it_cannot_do_and_full_always_works(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    with pytest.raises(KgresError, match="no 'default' resolve has finished here"):
        resolve(db, new=True)
    assert not resolve(db).incremental  # the first resolve is whole
    from kgres.resolve import ResolveConfig

    with pytest.raises(KgresError, match="not strategy 'exact'"):
        resolve(db, ResolveConfig(strategy="exact"), new=True)
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 0


def test_cli_ingest_resolve_says_it_was_incremental(db, neo4j_env, tmp_path, monkeypatch):
    """... and starts loading the embedding model once the input is valid, not before."""
    from kgres.cli import graph

    loads = []
    real_preload = graph.preload
    monkeypatch.setattr(graph, "preload", lambda cfg: (loads.append(cfg), real_preload(cfg)))
    run = CliRunner()
    broken = write_jsonl(tmp_path / "broken.jsonl", [{"kind": "mention", "id": "x1", "type": "PERSON"}])
    bad_input = run.invoke(main, ["ingest", "jsonl", str(broken), "--resolve"])
    assert bad_input.exit_code == 1 and "name" in bad_input.stderr and loads == []
    first = run.invoke(main, ["ingest", "jsonl", str(fixture(tmp_path)), "--resolve", "--json"],
                       catch_exceptions=False)
    doc = json.loads(first.stdout)
    assert first.exit_code == 0 and doc["ingest"]["mentions"] == 18 and not doc["resolve"]["incremental"]
    assert len(loads) == 1
    out = run.invoke(main, ["ingest", "jsonl", str(new_mentions(tmp_path, ("n1", "Mr. Sherlock Holmes", "PERSON"))),
                            "--resolve"], catch_exceptions=False)
    assert out.exit_code == 0 and "incremental: 1 new entities" in out.output
    assert entity_of(db, "n1") == entity_of(db, "sh1")
    bad = run.invoke(main, ["resolve", "--new", "--strategy", "cosine"])
    assert bad.exit_code == 1 and "--new resolves with kgres's own engine" in bad.stderr


def test_an_import_that_brings_nothing_new_resolves_nothing_and_loads_no_model(db, tmp_path, monkeypatch):
    """An input imported again (``ingest --resolve``, ``POST /mentions``: a retry) changes nothing: the
    resolve after it is an increment with nothing in it, which neither scores a pair nor loads the
    embedding model, not a run over every entity. Asked for on its own, a resolve still runs whole."""
    from kgres.resolve import embed as embed_module
    from kgres.resolve import pipeline

    path = fixture(tmp_path)
    ingest.ingest(db, "jsonl", path)
    resolve(db)
    before = groups(db)
    loads: list[str] = []
    monkeypatch.setattr(pipeline, "preload_encoder", lambda cfg: loads.append("preload"))
    monkeypatch.setattr(pipeline, "encoder_precision", lambda cfg: loads.append("precision"))
    monkeypatch.setattr(embed_module, "load_encoder", lambda cfg: loads.append("load"))
    assert ingest.ingest(db, "jsonl", path).nodes_created == 0
    again = resolve(db, after_import=True)
    assert again.incremental and again.new_entities == 0
    assert again.candidate_pairs == 0 and again.merged_entities == 0 and again.embed_precision is None
    assert loads == [] and groups(db) == before
    monkeypatch.undo()
    assert not resolve(db).incremental


def test_triples_between_resolved_mentions_leave_no_context_embedding_stale(db, tmp_path):
    """A later import of triples between mentions already resolved (no new entity) gives their
    entities a new neighbour each: the resolve after it recomputes their context embeddings, which
    the increment's own recompute (around its new entities) would not reach."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "t.jsonl", [
        {"kind": "triple", "subject": "ip7", "predicate": "MADE_BY", "object": "ap1"},
        {"kind": "triple", "subject": "pm1", "predicate": "NEAR", "object": "bs1"}]))
    assert db.run("MATCH (e:ContextStale) RETURN count(e) AS n")[0]["n"] == 4
    stats = resolve(db, after_import=True)
    assert stats.incremental and stats.new_entities == 0
    assert db.run("MATCH (e:ContextStale) RETURN count(e) AS n")[0]["n"] == 0
    assert_contexts_current(db)


def test_a_graph_resolved_in_increments_ends_close_to_one_run(db, tmp_path):
    """Known gold: 900 generated mentions, one run vs three increments (--new after the first)."""
    generate(tmp_path / "g.jsonl", tmp_path / "gold.jsonl", 900, seed=5)
    gold = gold_of(tmp_path / "gold.jsonl")
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    resolve(db, new=False)
    one = {m: e for e, ms in ((next(iter(g)), g) for g in groups(db)) for m in ms}
    from kgres import schema
    from kgres.config import load_settings

    schema.reset(db)
    schema.init(db, load_settings().schema_)
    for i, part in enumerate(increments(tmp_path / "g.jsonl", tmp_path / "parts", 3)):
        ingest.ingest(db, "jsonl", part)
        assert resolve(db, new=None if i == 0 else True).incremental == (i > 0)
    inc = {m: e for e, ms in ((next(iter(g)), g) for g in groups(db)) for m in ms}
    same = pairwise(inc, one)
    assert same["p"] >= 0.95 and same["r"] >= 0.85, same
    assert pairwise(inc, gold)["p"] >= pairwise(one, gold)["p"] - 0.02
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_related_derived(db)


def test_http_post_mentions_resolves_a_batch_and_writes_nothing_for_a_bad_one(db, tmp_path):
    import threading

    from kgres.retrieve import Retriever
    from kgres.retrieve.serve import Server, create_app
    from tests.graphs import counts, free_port
    from tests.test_retrieve import _http

    ingest.ingest(db, "jsonl", fixture(tmp_path), source="story")
    resolve(db)
    with Server(create_app(db, Retriever(db), token="s3cret"), port=free_port()) as server:
        url = server.url + "/mentions"
        batch = {"source": "story", "records": [
            {"kind": "chunk", "id": "c30", "text": "Sherlock Holmes plays the violin."},
            {"kind": "mention", "id": "n1", "name": "Sherlock Holmes", "type": "PERSON", "chunk_id": "c30"},
            {"kind": "mention", "id": "n2", "name": "violin", "type": "INSTRUMENT", "chunk_id": "c30"},
            {"kind": "triple", "subject": "n1", "predicate": "PLAYS", "object": "n2", "chunk_id": "c30"}]}
        assert _http("POST", url, batch)[0] == 401  # the token comes first
        status, body = _http("POST", url, batch, token="s3cret")
        assert status == 200 and body["resolve"]["incremental"] and body["ingest"]["mentions"] == 2
        by_id = {m["id"]: m for m in body["mentions"]}
        assert by_id["n1"]["entity_id"] == entity_of(db, "sh1") and by_id["n1"]["method"] in ("model", "rules")
        assert by_id["n1"]["run_id"].startswith(body["resolve"]["run_id"])
        assert by_id["n2"]["entity_id"] == "ent:story:n2" and by_id["n2"]["method"] == "ingest"
        assert 0 < by_id["n1"]["confidence"] <= 1
        # a client's retry of the same batch writes nothing and resolves nothing new: no run over every entity
        status, again = _http("POST", url, batch, token="s3cret")
        assert status == 200 and again["ingest"]["nodes_created"] == 0
        assert again["resolve"]["incremental"] and again["resolve"]["new_entities"] == 0
        assert again["resolve"]["candidate_pairs"] == 0 and again["mentions"] == body["mentions"]
        before = counts(db)
        bad = {"source": "story", "records": [
            {"kind": "mention", "id": "n3", "name": "Watson", "type": "PERSON"},
            {"kind": "mention", "id": "n4", "type": "PERSON"}]}
        status, body = _http("POST", url, bad, token="s3cret")
        assert status == 422 and "records, line 2" in body["detail"] and "name" in body["detail"]
        assert counts(db) == before  # nothing of the batch written
        assert _http("POST", url, {"records": []}, token="s3cret")[0] == 422
        # two clients at once: one writer at a time, both answered
        results: list[int] = []
        posts = [{"source": "story", "records": [{"kind": "mention", "id": f"p{i}", "name": f"Dr. Watson {i}",
                                                   "type": "PERSON"}]} for i in range(2)]
        threads = [threading.Thread(target=lambda b=b: results.append(_http("POST", url, b, token="s3cret")[0]))
                   for b in posts]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert results == [200, 200]
        status, schema = _http("GET", server.url + "/openapi.json", token="s3cret")
        assert "/mentions" in schema["paths"]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
