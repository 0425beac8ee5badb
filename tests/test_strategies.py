"""Strategies and modes on the real database: the baselines do what their systems do, the default
beats them on precision at equal or better recall, synonym modes link instead of merging, gendered
honorifics keep people apart, and an interrupted resolve is finished by the next one."""

from __future__ import annotations

import pytest

from kgres.evaluate.metrics import pairwise
from kgres import ingest
from kgres.curate import export
from kgres.resolve import merge
from kgres.resolve import ResolveConfig, resolve
from tests.graphs import (assert_aggregates_current, assert_decisions_recorded,
                          assert_one_refers_to_per_mention, write_jsonl)
from tests.test_resolve import MENTIONS, fixture, groups

GOLD = {i: i.rstrip("0123456789") if i[:2] in ("sh", "bs", "ll") else i for i, *_ in MENTIONS if i != "js1"}


def predicted(db) -> dict[str, str]:
    return {k: row["entity_id"] for row in export.clusters(db, same_as=True) for k in row["mention_ids"]}


def run(db, **cfg):
    return resolve(db, ResolveConfig(**cfg))


def test_baselines_do_what_their_systems_do(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    before = groups(db), _entity_layer(db)
    stats = run(db, strategy="exact")
    assert stats.merged_entities == 0        # no two names are equal upper-cased AND typed alike
    merge.rollback(db, stats.run_id)
    stats = run(db, strategy="exact-name")   # "Baker Street" typed GEO and ORGANIZATION: one node
    assert frozenset({"bs1", "bs2"}) in groups(db) and stats.merged_entities == 1
    merge.rollback(db, stats.run_id)
    stats = run(db, strategy="cosine")       # synonym edges only; nothing moves
    assert stats.merged_entities == 0 and stats.synonym_links > 0
    assert db.run("MATCH ()-[s:SAME_AS]->() RETURN min(s.confidence) AS c")[0]["c"] >= 0.8
    merge.rollback(db, stats.run_id)
    assert db.run("MATCH ()-[s:SAME_AS]->() RETURN count(s) AS n")[0]["n"] == 0
    stats = run(db, strategy="deg-rag")      # union-find until 40% of the 18 entities are absorbed
    assert stats.merged_entities == int(0.4 * 18)
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_decisions_recorded(db)
    merge.rollback(db, stats.run_id)
    assert (groups(db), _entity_layer(db)) == before   # every baseline is undone exactly


def test_default_beats_every_baseline_on_precision_at_equal_or_better_recall(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    scores = {}
    for strategy in ("default", "exact", "exact-name", "cosine", "deg-rag"):
        stats = run(db, strategy=strategy)
        scores[strategy] = pairwise(predicted(db), GOLD)
        merge.rollback(db, stats.run_id)
    best = scores.pop("default")
    assert best["p"] == 1.0 and best["r"] == 1.0
    for name, s in scores.items():
        assert best["p"] >= s["p"] and best["r"] >= s["r"], (name, s)
    assert scores["deg-rag"]["false_merges"] > 0   # the chaining baseline fuses what only looks alike


NEXT_PASS = ("resolve_focus_partner_pairs", "resolve_focus_neighbours", "resolve_embed_neighbours")


@pytest.mark.parametrize("cfg", [{"strategy": "exact-name"}, {"max_passes": 1}])
def test_the_last_pass_a_resolve_makes_reads_no_next_pass(db, tmp_path, monkeypatch, cfg):
    """A baseline's only pass, and the pass a cap ends a resolve on, merge and stop: the focus and
    the changed sides a next pass would read are not asked for."""
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    asked: list[str] = []
    read = type(db).read

    def recorded(self, name, *args, **kwargs):
        asked.append(name)
        return read(self, name, *args, **kwargs)

    monkeypatch.setattr(type(db), "read", recorded)
    stats = run(db, **cfg)
    assert stats.merged_entities > 0 and stats.last_pass_merged > 0   # the last pass merged: a next one would look
    assert not set(NEXT_PASS) & set(asked)


def test_synonym_mode_links_and_moves_nothing(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    before = groups(db)
    stats = run(db, mode="synonym")
    assert groups(db) == before and stats.merged_entities == 0 and stats.passes == 1
    links = db.run("MATCH (a)-[s:SAME_AS]->(b) RETURN a.id AS a, b.id AS b, s.confidence AS c, "
                   "s.decided_by AS by, s.evidence AS ev")
    assert len(links) == stats.synonym_links > 0
    assert all(link["c"] and link["by"] and link["ev"] for link in links)
    linked = predicted(db)
    assert len({linked[k] for k in ("sh1", "sh4", "sh5")}) == 1   # export --same-as joins them
    assert linked["my1"] != linked["sh1"]
    merge.rollback(db, stats.run_id)
    assert db.run("MATCH ()-[s:SAME_AS]->() RETURN count(s) AS n")[0]["n"] == 0


def test_merge_plus_synonym_merges_the_certain_and_links_the_review_band(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    stats = run(db, mode="merge+synonym")
    assert frozenset({"sh1", "sh2", "sh3", "sh4", "sh5"}) in groups(db)
    review = db.run("MATCH (a:Entity)-[c:CANDIDATE {band: 'review'}]->(b:Entity) "
                    "WHERE c.run_id STARTS WITH $run RETURN count(c) AS n", run=stats.run_id)[0]["n"]
    links = db.run("MATCH (:Entity)-[s:SAME_AS {method: 'review-band'}]->(:Entity) RETURN count(s) AS n")[0]["n"]
    assert links == stats.synonym_links and links <= review
    merge.rollback(db, stats.run_id)
    assert db.run("MATCH ()-[s:SAME_AS]->() RETURN count(s) AS n")[0]["n"] == 0


def test_gendered_honorifics_keep_people_apart(db, tmp_path):
    recs = [{"kind": "chunk", "id": "c1", "text": "Mr. and Mrs. Fezziwig danced."}]
    recs += [{"kind": "mention", "id": i, "name": n, "type": "PERSON", "chunk_id": "c1"}
             for i, n in (("m1", "Mr. Fezziwig"), ("m2", "Mrs. Fezziwig"), ("m3", "Fezziwig"), ("m4", "Mr Fezziwig"))]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "f.jsonl", recs))
    run(db)
    g = groups(db)
    assert not any({"m1", "m2"} <= grp for grp in g)
    assert any({"m1", "m4"} <= grp for grp in g)
    why = db.run("MATCH (:Entity)-[c:CANDIDATE]-(:Entity) WHERE c.cannot_link CONTAINS 'gender' "
                 "RETURN count(c) AS n")[0]["n"]
    assert why > 0


class Crash(Exception):
    pass


@pytest.mark.parametrize("stage", ["resolve_merge_refresh", "resolve_score_create"])
def test_an_interrupted_resolve_is_finished_by_the_next(db, tmp_path, monkeypatch, stage):
    path = fixture(tmp_path)
    ingest.ingest(db, "jsonl", path)
    resolve(db, run_id="reference")
    expected = groups(db), _entity_layer(db)
    merge.rollback(db, "reference")
    db.run("MATCH (r:ResolutionRun) DETACH DELETE r")
    db.run("MATCH ()-[c:CANDIDATE]->() DELETE c")

    real_write = type(db).write

    def write(self, name, **params):
        if name == stage == "resolve_merge_refresh":  # a merge batch committed, its refresh did not
            raise Crash()
        out = real_write(self, name, **params)
        if name == stage:  # killed once a page of scored pairs was written
            raise Crash()
        return out
    monkeypatch.setattr(type(db), "write", write)
    with pytest.raises(Crash):
        resolve(db, run_id="reference")
    monkeypatch.undo()
    assert_one_refers_to_per_mention(db)                       # consistent even mid-run
    stats = resolve(db)
    assert stats.resumed and stats.run_id == "reference"
    assert "reindex" in stats.seconds                          # counting the vectors the first process's passes deleted
    assert_aggregates_current(db)                              # what the crash left stale, the resume refreshed
    assert (groups(db), _entity_layer(db)) == expected
    assert_decisions_recorded(db)
    assert db.run("MATCH (r:ResolutionRun {status: 'running'}) RETURN count(r) AS n")[0]["n"] == 0
    assert db.run("MATCH (a)-[c:CANDIDATE]->(b) WITH a, b, c.run_id AS run, count(*) AS n WHERE n > 1 "
                  "RETURN count(*) AS twice")[0]["twice"] == 0  # the redone pass wrote each pair once


def _entity_layer(db):
    """Entities (aggregates) and RELATED edges, without embeddings (recomputed on a changed graph)."""
    ents = db.run("MATCH (e:Entity) RETURN e.id AS id, e.aliases AS aliases, e.mention_count AS n ORDER BY id")
    rels = db.run("MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id AS a, b.id AS b, r.predicate AS p, "
                  "r.triple_ids AS t ORDER BY a, b, p")
    return ents, rels


def test_cli_strategy_mode_embed_and_same_as_export(db, neo4j_env, tmp_path):
    import json

    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    cli = CliRunner()
    out = cli.invoke(main, ["embed", "--json"], catch_exceptions=False)
    assert out.exit_code == 0 and json.loads(out.stdout)["embedded"] == 18
    out = cli.invoke(main, ["resolve", "--strategy", "exact-name", "--json"], catch_exceptions=False)
    doc = json.loads(out.stdout)
    assert out.exit_code == 0 and (doc["strategy"], doc["merged_entities"]) == ("exact-name", 1)
    assert db.run("MATCH (r:ResolutionRun {id: $id}) RETURN r.strategy AS s", id=doc["run_id"])[0]["s"] == "exact-name"
    assert cli.invoke(main, ["rollback", doc["run_id"]]).exit_code == 0
    out = cli.invoke(main, ["resolve", "--mode", "synonym", "--json"], catch_exceptions=False)
    assert json.loads(out.stdout)["synonym_links"] > 0
    plain = cli.invoke(main, ["export", "clusters"], catch_exceptions=False).output.splitlines()
    joined = cli.invoke(main, ["export", "clusters", "--same-as"], catch_exceptions=False).output.splitlines()
    assert len(plain) == 18 and len(joined) < 18
    assert sorted(k for line in joined for k in json.loads(line)["mention_ids"]) == sorted(m[0] for m in MENTIONS)
    bad = cli.invoke(main, ["resolve", "--strategy", "telepathy"])
    assert bad.exit_code == 2 and "telepathy" in bad.output + (bad.stderr or "")
