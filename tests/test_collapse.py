"""collapse: identical-name copies merge before blocking, under the same guards as clustering."""

from __future__ import annotations

import json

from kgres import ingest
from kgres.resolve import merge
from kgres.resolve.collapse import collapse
from kgres.resolve.embed import embed
from kgres.resolve.normalize import normalize
from kgres.resolve import resolve
from kgres.resolve.score import ScoreConfig, load_ambiguity
from tests.graphs import graph_state, assert_aggregates_current, snapshot, write_jsonl


def load(db, tmp_path, mentions, triples=()):
    recs = [{"kind": "chunk", "id": "c1", "text": "chunk"}]
    recs += [{"kind": "mention", "id": i, "name": n, "type": "PERSON", "chunk_id": "c1", **extra}
             for i, n, *rest in mentions for extra in [rest[0] if rest else {}]]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o} for s, p, o in triples]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "m.jsonl", recs))
    normalize(db)


def members(groups) -> set[frozenset[str]]:
    return {frozenset(m.removeprefix("ent:jsonl:") for m in g.members) for g in groups}


def run(db):
    return collapse(db, ScoreConfig(), load_ambiguity(db), max_component=300, cohesion=0.8)


def test_copies_merge_and_ambiguous_short_forms_do_not(db, tmp_path):
    load(db, tmp_path, [("s1", "Sherlock Holmes"), ("s2", "SHERLOCK HOLMES"), ("s3", "Mr. Sherlock Holmes"),
                        ("m1", "Mycroft Holmes"), ("m2", "Mycroft Holmes"), ("h1", "Holmes"), ("h2", "Holmes"),
                        ("w1", "Watson"), ("w2", "Watson")])
    groups, left = run(db)
    # "Mr. Sherlock Holmes" carries a gender the others do not state: it is left to pair scoring.
    # Two bare "Holmes" may be the two brothers; a bare "Watson" has one holder (none here): merged.
    assert members(groups) == {frozenset({"s1", "s2"}), frozenset({"m1", "m2"}), frozenset({"w1", "w2"})}
    assert left == 0
    g = next(g for g in groups if "ent:jsonl:s1" in g.members)
    assert g.canonical == "ent:jsonl:s1" and g.evidence["ent:jsonl:s2"].rule == "same_key"


def test_cannot_links_inside_a_copy_set_keep_those_copies_apart(db, tmp_path):
    load(db, tmp_path, [("a1", "Atlas Eight"), ("a2", "Atlas Eight"), ("a3", "Atlas Eight"),
                        ("o1", "Ada Smith", {"attributes": {"orcid": "1"}}),
                        ("o2", "Ada Smith", {"attributes": {"orcid": "2"}}),
                        ("o3", "Ada Smith", {"attributes": {"orcid": "1"}})],
         triples=[("a1", "MENTORS", "a2")])
    groups, _ = run(db)
    found = members(groups)
    assert not any({"a1", "a2"} <= g for g in found)  # merging them would make Atlas its own mentor
    assert frozenset({"o1", "o3"}) in found and not any("o2" in g for g in found)
    # Conflicted sets larger than max_component are left whole to blocking and pair scoring.
    groups, left = collapse(db, ScoreConfig(), load_ambiguity(db), max_component=2, cohesion=0.8)
    assert groups == [] and left == 6


def test_resolve_collapses_first_and_rollback_restores(db, tmp_path):
    """Two copies collapse into "Sherlock Holmes", which then merges into the better-supported "Mr.
    Sherlock Holmes" (a copy set of its own: the honorific states a gender): those two mentions move
    twice, once per run, and rolling back the whole resolution restores everything exactly."""
    load(db, tmp_path, [("s0", "Sherlock Holmes"), ("s1", "Sherlock Holmes"), ("h", "Holmes")]
         + [(f"m{i}", "Mr. Sherlock Holmes") for i in range(3)])
    embed(db)  # derived data a run writes: snapshot with it in place
    before = snapshot(db)
    stats = resolve(db)
    assert stats.collapsed_entities == 3 and stats.collapse_left == 0 and stats.entities_after == 1
    assert_aggregates_current(db)
    trail = db.run("MATCH (m:Mention {source_key: 'm2'})-[r:REFERS_TO]->(e:Entity) "
                   "RETURN r.method AS method, r.evidence AS evidence, r.run_id AS run")[0]
    assert trail["method"] == "rules" and json.loads(trail["evidence"])["rule"] == "same_key"
    assert trail["run"] == stats.run_id  # the collapse run is the first
    moves = db.run("MATCH (m:Mention {source_key: 's1'})-[r:REFERS_TO|REFERRED_TO]->() RETURN r.run_id AS run")
    assert len({r["run"] for r in moves}) == len(moves)  # never moved twice by one run
    merge.rollback(db, stats.run_id)
    nodes, rels = snapshot(db)
    assert graph_state((nodes, rels)) == graph_state(before)


def test_a_copy_related_to_a_longer_name_of_its_words_is_a_namesake(db, tmp_path):
    """One triple says a "Murdoch" is the son of "Rupert Murdoch": that copy stays out of the bare
    "Murdoch" copies (merged in, it would forbid them Rupert for good), clustering keeps it alone, and
    the other copies join Rupert. A synonym relation ("also known as") says nothing of the kind."""
    load(db, tmp_path, [(f"m{i}", "Murdoch") for i in range(5)] + [("son", "Murdoch")]
         + [(f"r{i}", "Rupert Murdoch") for i in range(3)]
         + [(f"w{i}", "Watson") for i in range(3)] + [("jw", "John Watson")],
         triples=[("son", "SON_OF", "r0"), ("w0", "ALSO_KNOWN_AS", "jw")])
    groups, left = run(db)
    assert members(groups) == {frozenset({f"m{i}" for i in range(5)}), frozenset({f"r{i}" for i in range(3)}),
                               frozenset({f"w{i}" for i in range(3)})}
    assert left == 1
    stats = resolve(db)
    assert stats.entities_after == 3
    home = {r["m"]: r["e"] for r in db.run("MATCH (m:Mention)-[:REFERS_TO]->(e:Entity) "
                                          "RETURN m.source_key AS m, e.id AS e")}
    assert {home[f"m{i}"] for i in range(5)} == {home["r0"]} != {home["son"]}
    assert home["jw"] == home["w0"]
