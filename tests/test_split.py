"""split and rebuild: one merge undone exactly, kept apart afterwards; the projection re-derived."""

from __future__ import annotations

import pytest

from kgres import ingest
from kgres.resolve.embed import embed
from kgres.errors import KgresError
from kgres.resolve.normalize import normalize
from kgres.config import SchemaSettings
from kgres.resolve import resolve
from kgres.schema import init
from kgres.curate.rebuild import RebuildStats, rebuild
from kgres.curate.split import split
from tests.graphs import (assert_aggregates_current, assert_contexts_current, assert_one_refers_to_per_mention,
                          graph_state, snapshot, write_jsonl)

RECS = [{"kind": "mention", "id": "s1", "name": "Sherlock Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "s2", "name": "Mr. Sherlock Holmes", "type": "PERSON"},
        {"kind": "mention", "id": "s3", "name": "Sherlock", "type": "PERSON"},
        {"kind": "mention", "id": "b1", "name": "Baker Street", "type": "GEO"},
        {"kind": "triple", "subject": "s1", "predicate": "LIVES_AT", "object": "b1"},
        {"kind": "triple", "subject": "s3", "predicate": "VISITS", "object": "b1"}]


def entity_of(db, key: str) -> str:
    return db.run("MATCH (m:Mention {source_key: $k})-[:REFERS_TO]->(e) RETURN e.id AS e", k=key)[0]["e"]


@pytest.fixture
def resolved(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "s.jsonl", RECS))
    normalize(db)
    embed(db)
    before = snapshot(db)
    resolve(db)
    assert entity_of(db, "s1") == entity_of(db, "s2") == entity_of(db, "s3")
    return db, before


def test_split_entity_restores_its_state_and_keeps_it_apart(resolved):
    db, before = resolved
    retired = db.run("MATCH (x:RetiredEntity) RETURN x.id AS id, x.name AS name ORDER BY id")
    target = next(r for r in retired if r["name"] == "Sherlock")
    result = split(db, "Sherlock", decided_by="human:test")
    assert result.kind == "entity" and result.restored == target["id"]
    assert entity_of(db, "s3") == target["id"] and entity_of(db, "s1") == entity_of(db, "s2")
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    assert_contexts_current(db)  # Baker Street's neighbours are two entities again
    # the split entity is exactly as before the merge, its VISITS edge included
    node = db.run("MATCH (e:Entity {id: $id}) RETURN properties(e) AS p", id=target["id"])[0]["p"]
    assert node["aliases"] == ["Sherlock"] and node["mention_count"] == 1
    assert db.run("MATCH (:Entity {id: $id})-[r:RELATED {predicate: 'VISITS'}]->() RETURN count(r) AS n",
                  id=target["id"])[0]["n"] == 1
    assert db.run("MATCH (:Entity {id: $id})-[n:NOT_SAME_AS]->() RETURN n.decided_by AS w", id=target["id"]) == \
        [{"w": "human:test"}]
    resolve(db)  # a later run does not merge it back
    assert entity_of(db, "s3") == target["id"]


def test_split_mention(resolved):
    db, _ = resolved
    moved = db.run("MATCH (m:Mention)-[r:REFERS_TO]->() WHERE r.previous_entity_id IS NOT NULL "
                   "RETURN m.id AS id, r.previous_entity_id AS prev ORDER BY id")[0]
    r = split(db, moved["id"])
    assert r.kind == "mention" and r.restored == moved["prev"]
    assert_one_refers_to_per_mention(db)
    assert_aggregates_current(db)
    never_moved = db.run("MATCH (m:Mention)-[r:REFERS_TO]->() WHERE r.previous_entity_id IS NULL "
                         "AND r.method = 'ingest' RETURN m.id AS id")[0]["id"]
    with pytest.raises(KgresError, match="still refers to its original entity"):
        split(db, never_moved)
    with pytest.raises(KgresError, match="neither a mention id nor an entity"):
        split(db, "nothing")


def test_split_everything_back_equals_before_except_decisions(resolved):
    db, before = resolved
    for name in [r["name"] for r in db.run("MATCH (x:RetiredEntity) RETURN x.name AS name")]:
        split(db, name)
    db.run("MATCH ()-[n:NOT_SAME_AS]->() DELETE n")
    nodes, rels = snapshot(db)
    assert graph_state((nodes, []))[0] == graph_state((before[0], []))[0]
    assert graph_state(([], [r for r in rels if '"CANDIDATE"' not in r]))[1] == graph_state(([], before[1]))[1]


def test_rebuild_reproduces_the_entity_layer(resolved):
    db, _ = resolved
    good = snapshot(db)
    db.run("MATCH ()-[r:RELATED]->() DELETE r")
    db.run("MATCH (e:Entity) SET e.aliases = ['garbage'], e.mention_count = 0, e.trail_aliases = ['garbage']")
    assert snapshot(db) != good
    index = db.run("SHOW VECTOR INDEXES YIELD name, id WHERE name = 'entity_embedding' RETURN id")
    assert rebuild(db, batch_size=1) == RebuildStats(entities=2, vector_index_rebuilt=True)
    assert snapshot(db) == good
    assert db.run("SHOW VECTOR INDEXES YIELD name, id WHERE name = 'entity_embedding' RETURN id") != index


def test_rebuild_without_a_vector_index_leaves_creating_it_to_init(resolved):
    db, _ = resolved
    db.run("DROP INDEX entity_embedding")
    try:
        assert rebuild(db) == RebuildStats(entities=2, vector_index_rebuilt=False)
        assert not db.run("SHOW VECTOR INDEXES YIELD name WHERE name = 'entity_embedding' RETURN name")
    finally:
        init(db, SchemaSettings())
        db.run("CALL db.awaitIndexes(300)")


def test_a_split_killed_before_its_refresh_is_refreshed_by_the_next_command(resolved):
    """The move and the :Stale mark are one transaction: a split that dies right after it (before its
    refresh) leaves the entities marked, and the next split, decide or resolve refreshes them."""
    from kgres.resolve.merge import finish_decisions
    from kgres.resolve.pipeline import STRATEGIES

    db, _ = resolved
    mention = db.run("MATCH (m:Mention {source_key: 's3'}) RETURN m.id AS id")[0]["id"]
    db.query("curate_split_mention", id=mention, decided_by="human:test", reason="killed before refresh")
    stale = db.run("MATCH (e:Entity:Stale) RETURN e.name AS name ORDER BY name")
    assert [r["name"] for r in stale] == ["Sherlock", "Sherlock Holmes"]
    with pytest.raises(AssertionError):  # the canonical still counts the mention it lost
        assert_aggregates_current(db)
    finish_decisions(db, list(STRATEGIES))  # what resolve and decide do first
    assert db.run("MATCH (e:Stale) RETURN count(e) AS n")[0]["n"] == 0
    assert_aggregates_current(db)
