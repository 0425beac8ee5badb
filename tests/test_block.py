"""``block`` against the real database: what each strategy proposes, and that it does not depend on
the full-text index's history."""

from __future__ import annotations

import math

import pytest
from pydantic import ValidationError

from kgres import ingest, schema
from kgres.config import load_settings
from kgres.resolve import block as block_module
from kgres.resolve.block import BlockConfig, VectorCache, block, kmeans_k, propose
from kgres.resolve.fuzzy import FuzzyWords, index_words
from kgres.resolve.normalize import normalize
from tests.graphs import write_jsonl


def _pairs(db, run_id: str, method: str) -> set[tuple[str, str]]:
    rows = db.run("MATCH (a:Entity)-[c:CANDIDATE {run_id: $run}]->(b:Entity) "
                  "WHERE $method IN c.methods RETURN a.id AS a, b.id AS b", run=run_id, method=method)
    return {(r["a"], r["b"]) for r in rows}


def _lexical_pairs(db, run_id: str) -> set[tuple[str, str]]:
    return _pairs(db, run_id, "lexical")


def _names(db, tmp_path, names: list[tuple[str, str]], triples: list[tuple[str, str]] = ()) -> None:
    """Ingest one mention per (id, name) (type from the name's suffix after '|', if any) and normalise."""
    recs = []
    for i, name in names:
        n, _, type_ = name.partition("|")
        recs.append({"kind": "mention", "id": i, "name": n, "type": type_ or None})
    recs += [{"kind": "triple", "subject": s, "predicate": "KNOWS", "object": o} for s, o in triples]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "b.jsonl", recs))
    normalize(db)


def e(i: str) -> str:
    return f"ent:jsonl:{i}"


def test_exact_pairs_same_core_key_across_types_and_no_other(db, tmp_path):
    _names(db, tmp_path, [("a", "Baker Street|GEO"), ("b", "baker street|ORGANIZATION"), ("c", "Baker Street's|GEO"),
                          ("d", "Baker Street Irregulars|ORGANIZATION")])
    block(db, "r", BlockConfig(strategies=("exact",)))
    assert _pairs(db, "r", "exact") == {(e("a"), e("b")), (e("a"), e("c")), (e("b"), e("c"))}


def test_acronym_pairs_an_acronym_with_the_name_it_abbreviates(db, tmp_path):
    _names(db, tmp_path, [("a", "Large Language Models|CONCEPT"), ("b", "LLMs|CONCEPT"), ("c", "llm|CONCEPT"),
                          ("d", "Lunar Landing Module|CONCEPT")])
    block(db, "r", BlockConfig(strategies=("acronym",)))
    # "LLMs" is written as an acronym of both multi-word names; "llm" is a word, and its core is the
    # acronym key itself, so it pairs with the names that abbreviate to it
    assert (e("a"), e("b")) in _pairs(db, "r", "acronym") and (e("b"), e("d")) in _pairs(db, "r", "acronym")
    assert (e("a"), e("d")) not in _pairs(db, "r", "acronym")


def test_lexical_pairs_share_rare_words_and_k_bounds_each_entity(db, tmp_path):
    _names(db, tmp_path, [("a", "Sherlock Holmes|PERSON"), ("b", "Holmes|PERSON"), ("c", "Mycroft Holmes|PERSON"),
                          ("d", "John Watson|PERSON")] + [(f"x{i}", f"Holmes Fan {i}|PERSON") for i in range(6)])
    block(db, "r", BlockConfig(strategies=("lexical",), k=2))
    pairs = _pairs(db, "r", "lexical")
    assert (e("a"), e("b")) in pairs and not any(e("d") in p for p in pairs)
    assert len(pairs) <= 2 * 10  # at most k proposals per entity: never all pairs of the ten


def test_a_name_whose_key_was_made_singular_finds_the_names_written_in_the_plural(db, tmp_path):
    """"Gates" is keyed "gate"; the index holds "Bill Gates" as written. Short words are not typo-tolerant,
    so the query names the plural too (cesi-ambiguous: "Gates" never met "Bill Gates")."""
    _names(db, tmp_path, [("a", "Gates"), ("b", "Bill Gates"), ("c", "City"), ("d", "Twin Cities"),
                          ("f", "Billy Gatt")])
    block(db, "r", BlockConfig(strategies=("lexical",)))
    pairs = _lexical_pairs(db, "r")
    assert {(e("a"), e("b")), (e("c"), e("d"))} <= pairs and (e("a"), e("f")) not in pairs


def _unit(angle: float) -> list[float]:
    v = [0.0] * 384
    v[0], v[1] = math.cos(angle), math.sin(angle)
    return v


def _embedded(db, tmp_path, angles: dict[str, float]) -> None:
    _names(db, tmp_path, [(i, f"name {i}") for i in angles])
    for i, angle in angles.items():
        db.run("MATCH (x:Entity {id: $id}) SET x.embedding = $v", id=e(i), v=_unit(angle))
    db.run("CALL db.awaitIndexes(60)")


def test_semantic_pairs_above_min_cosine(db, tmp_path):
    _embedded(db, tmp_path, {"a": 0.0, "b": 0.3, "c": 1.4})  # cos(a, b) = 0.955, cos(a, c) = 0.17
    block(db, "r", BlockConfig(strategies=("semantic",), min_cosine=0.8))
    assert _pairs(db, "r", "semantic") == {(e("a"), e("b"))}


@pytest.mark.parametrize("exact_max", [50_000, 0], ids=["exact", "vector-index"])
def test_semantic_pairs_k_nearest_ties_by_id_exact_or_by_the_index(db, tmp_path, exact_max):
    # a's two nearest (b, c) are equally near: k = 1 takes b, the smaller id; c's nearest is e
    _embedded(db, tmp_path, {"a": 0.0, "b": 0.3, "c": -0.3, "e": -0.5, "f": 2.0})
    cfg = BlockConfig(strategies=("semantic",), k=1, min_cosine=0.8, semantic_exact_max=exact_max)
    block(db, "r", cfg)
    assert _pairs(db, "r", "semantic") == {(e("a"), e("b")), (e("c"), e("e"))}
    block(db, "focus", cfg, focus=[e("c"), e("f")])  # f has no neighbour above the floor
    assert _pairs(db, "focus", "semantic") == {(e("c"), e("e"))}
    # an increment this large against its graph is paired exactly (below semantic_exact_max), as a
    # whole pass is; either way, the same pairs
    increment = propose(db, cfg, focus=[e("c"), e("f")], incremental=True)
    assert {p for p, methods in increment.items() if "semantic" in methods} == {(e("c"), e("e"))}


def test_the_exact_nearest_search_pages_to_a_bounded_matrix_and_answers_the_same(monkeypatch):
    """A page holds no more rows than fit SIMILARITY_BYTES against every column, however many columns;
    pages are independent, so a page of 32 rows proposes what one of 1,024 does."""
    import numpy as np

    from kgres.resolve import block as block_module

    assert block_module.page_rows(1_000) == block_module.KMEANS_ROWS
    assert block_module.page_rows(10_000_000) == block_module.MIN_ROWS
    assert 4 * block_module.page_rows(150_000) * 150_000 <= block_module.SIMILARITY_BYTES
    rng = np.random.default_rng(7)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    vectors[5] = vectors[9]                                                # a tie, broken by id
    ids = [f"e{i:03d}" for i in range(300)]
    one_page = block_module._closest(ids, vectors.copy(), 3, 0.2, None)
    monkeypatch.setattr(block_module, "SIMILARITY_BYTES", 4 * 300 * 7)     # 7 rows: below the minimum
    assert block_module.page_rows(300) == block_module.MIN_ROWS
    assert block_module._closest(ids, vectors.copy(), 3, 0.2, None) == one_page
    monkeypatch.setattr(block_module, "MIN_ROWS", 7)
    assert block_module._closest(ids, vectors.copy(), 3, 0.2, None) == one_page
    focused = block_module._closest(ids, vectors.copy(), 3, 0.2, ids[:50])
    assert focused < one_page and {i for p in focused for i in p} >= set(ids[:50])
    assert ("e005", "e009") in one_page and len(one_page) > 300


@pytest.mark.parametrize("bad", [{"semantic_exact_max": -1}, {"k": 0}, {"min_cosine": 1.5}])
def test_block_config_refuses_values_out_of_range(bad):
    with pytest.raises(ValidationError, match=next(iter(bad))):
        BlockConfig(**bad)


def test_structural_pairs_share_neighbours(db, tmp_path):
    _names(db, tmp_path, [("a", "Anne"), ("b", "Annie"), ("c", "Carl"), ("n1", "London"), ("n2", "Paris"),
                          ("n3", "Rome"), ("n4", "Oslo")],
           triples=[("a", "n1"), ("a", "n2"), ("b", "n1"), ("b", "n2"), ("c", "n3"), ("c", "n4")])
    block(db, "r", BlockConfig(strategies=("structural",)))
    assert (e("a"), e("b")) in _pairs(db, "r", "structural")
    assert not any(e("c") in p for p in _pairs(db, "r", "structural"))


def _node_similarity(db, k: int, cutoff: float) -> set[tuple[str, str]]:
    """GDS nodeSimilarity's pairs (smaller id first) over the blocking projection: what structural
    blocking computed before it walked each entity's neighbourhood."""
    from kgres.db.gds import projection

    with projection(db, "resolve_block_project", "block", with_embedding=False) as g:
        rows = db.run("CALL gds.nodeSimilarity.stream($g, {topK: $k, similarityCutoff: $cutoff, degreeCutoff: 2, "
                      "concurrency: 1}) YIELD node1, node2 "
                      "RETURN gds.util.asNode(node1).id AS a, gds.util.asNode(node2).id AS b",
                      g=g.name, k=k, cutoff=cutoff)
    return {(min(r["a"], r["b"]), max(r["a"], r["b"])) for r in rows}


def _jaccard_top_k(db, k: int, cutoff: float) -> dict[str, set[tuple[str, str]]]:
    """The known answer, per entity of two or more neighbours: its pairs (smaller id first) with the k
    others (of two or more) whose neighbour sets overlap its own by Jaccard at least ``cutoff``, most
    similar first, ties by id."""
    nbrs: dict[str, set[str]] = {}
    for r in db.run("MATCH (x:Entity)-[:RELATED]-(n:Entity) RETURN x.id AS x, n.id AS n"):
        nbrs.setdefault(r["x"], set()).add(r["n"])
    nbrs = {x: ns for x, ns in nbrs.items() if len(ns) >= 2}
    out = {}
    for x, nx in nbrs.items():
        scored = sorted((-len(nx & ny) / len(nx | ny), y) for y, ny in nbrs.items() if y != x)
        out[x] = {(min(x, y), max(x, y)) for j, y in [t for t in scored if -t[0] >= cutoff][:k]}
    return out


def test_walked_structural_pairs_are_jaccard_top_k_and_a_focus_gets_its_own(db, tmp_path, monkeypatch):
    import random

    rng = random.Random(7)
    hubs = [f"n{i:02d}" for i in range(12)]
    people = [f"p{i:02d}" for i in range(60)]
    triples = [(p, h) for p in people for h in rng.sample(hubs, rng.choice([1, 2, 2, 3, 3, 4]))]
    _names(db, tmp_path, [(i, f"Name {i}") for i in hubs + people], triples)
    wide = BlockConfig(strategies=("structural",), k=60, structural_cutoff=0.3)
    # where no tie is cut at k, GDS node similarity (a graph this small) and the walk agree
    assert set(propose(db, wide)) == set().union(*_jaccard_top_k(db, 60, 0.3).values()) == \
        _node_similarity(db, 60, 0.3)

    def graph_wide(*args):
        raise AssertionError("structural pairs computed over the whole graph")

    monkeypatch.setattr("kgres.resolve.block._graph_wide", graph_wide)
    focus = [e(p) for p in people[:3]]                                      # at most 5% of the entities
    assert set(propose(db, wide, focus=focus)) == set().union(*(_jaccard_top_k(db, 60, 0.3).get(f, set())
                                                                for f in focus))
    monkeypatch.setattr("kgres.resolve.block.STRUCTURAL_GDS_MAX", 10)      # a graph too large for GDS
    for k, cutoff in ((3, 0.5), (20, 0.3)):                                 # many ties cut at k = 3
        cfg = BlockConfig(strategies=("structural",), k=k, structural_cutoff=cutoff, batch_size=7)
        known = _jaccard_top_k(db, k, cutoff)
        assert set(propose(db, cfg)) == set().union(*known.values())
        focus = [e(p) for p in people[:10]]
        assert set(propose(db, cfg, focus=focus)) == set().union(*(known.get(f, set()) for f in focus))


def _sharing_two_neighbours(db, ids: list[str]) -> set[tuple[str, str]]:
    """Entities created in the order of ``ids``, each RELATED to the same two neighbours (every pair
    ties at Jaccard 1), and the structural pairs of k = 2 over them."""
    db.run("UNWIND ['n1', 'n2'] AS n CREATE (:Entity {id: n, name: n})")
    db.run("UNWIND $ids AS id CREATE (e:Entity {id: id, name: id}) WITH e "
           "MATCH (n:Entity) WHERE n.id IN ['n1', 'n2'] CREATE (e)-[:RELATED {predicate: 'KNOWS'}]->(n)", ids=ids)
    block(db, "r", BlockConfig(strategies=("structural",), k=2))
    return _pairs(db, "r", "structural")


def test_structural_ties_are_broken_alike_whatever_order_the_store_holds_the_entities_in(db):
    ids = [f"x{i:02d}" for i in range(12)]
    created_in_order = _sharing_two_neighbours(db, ids)
    schema.reset(db)
    schema.init(db, load_settings().schema_)
    created_reversed = _sharing_two_neighbours(db, ids[::-1])
    assert created_in_order and created_in_order == created_reversed


def test_methods_list_every_strategy_that_proposed_a_pair_and_rerun_adds_nothing(db, tmp_path):
    _names(db, tmp_path, [("a", "Sherlock Holmes|PERSON"), ("b", "sherlock holmes|PERSON")])
    cfg = BlockConfig(strategies=("exact", "lexical"))
    first = block(db, "r", cfg)
    assert db.run("MATCH ()-[c:CANDIDATE {run_id: 'r'}]->() RETURN c.methods AS m") == [{"m": ["exact", "lexical"]}]
    assert block(db, "r", cfg).pairs == first.pairs == 1


def test_attribute_pairs_share_rare_values_whole_and_for_a_focus(db, tmp_path):
    recs = [{"kind": "mention", "id": "a", "name": "Jon Smyth", "type": "PERSON",
             "attributes": {"dob": "1971-03-02", "postcode": "2615"}},
            {"kind": "mention", "id": "b", "name": "John Smith", "type": "PERSON",
             "attributes": {"dob": "1971-03-02", "postcode": "2615"}},
            {"kind": "mention", "id": "c", "name": "Mary Jones", "type": "PERSON", "attributes": {"dob": "1980-01-01"}},
            {"kind": "mention", "id": "d", "name": "Ann Lee", "type": "PERSON"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "p.jsonl", recs))
    normalize(db)
    block(db, "whole", BlockConfig(strategies=("attributes",)))
    assert _pairs(db, "whole", "attributes") == {(e("a"), e("b"))}  # no one shares Mary Jones's dob
    block(db, "focus", BlockConfig(strategies=("attributes",)), focus=[e("b")])
    assert _pairs(db, "focus", "attributes") == {(e("a"), e("b"))}
    block(db, "bare", BlockConfig(strategies=("attributes",)), focus=[e("d")])  # nothing to share
    assert _pairs(db, "bare", "attributes") == set()


def test_code_pairs_join_one_model_code_however_it_is_written(db, tmp_path):
    _names(db, tmp_path, [("a", "Panasonic Lumix DMC-FX777 5MP Digital Camera White|PRODUCT"),
                          ("b", "Panasonic DMCFX777 Digital Camera 5 Megapixel|PRODUCT"),
                          ("c", "Panasonic Lumix DMC-FX778 5MP Digital Camera|PRODUCT"),  # another model
                          ("d", "Canon 5MP Camera|PRODUCT")])  # a measure is no code
    normalize(db)
    block(db, "whole", BlockConfig(strategies=("codes",)))
    assert _pairs(db, "whole", "codes") == {(e("a"), e("b"))}
    block(db, "focus", BlockConfig(strategies=("codes",)), focus=[e("b")])
    assert _pairs(db, "focus", "codes") == {(e("a"), e("b"))}
    block(db, "none", BlockConfig(strategies=("codes",)), focus=[e("d")])
    assert _pairs(db, "none", "codes") == set()


def test_vector_cache_rereads_only_embeddings_whose_key_changed(db, tmp_path):
    _embedded(db, tmp_path, {"a": 0.0, "b": 0.3, "c": 1.4})
    db.run("MATCH (x:Entity) SET x.embedding_key = 'k-' + x.id")
    cache = VectorCache()
    ids, vectors = cache.vectors(db)
    assert ids == [e("a"), e("b"), e("c")] and vectors.shape == (3, 384)
    # a's vector changes under the same key: held, not read; b's key changes: read; c is merged away
    db.run("MATCH (x:Entity {id: $id}) SET x.embedding = $v", id=e("a"), v=_unit(2.0))
    db.run("MATCH (x:Entity {id: $id}) SET x.embedding = $v, x.embedding_key = 'new'", id=e("b"), v=_unit(1.0))
    db.run("MATCH (x:Entity {id: $id}) REMOVE x.embedding", id=e("c"))
    ids, vectors = cache.vectors(db)
    assert ids == [e("a"), e("b")]
    assert vectors[0].tolist()[:2] == pytest.approx([1.0, 0.0]) and vectors[1].tolist()[:2] == pytest.approx(
        [math.cos(1.0), math.sin(1.0)])


def test_kmeans_pairs_every_member_of_a_small_block_never_with_itself(db, tmp_path):
    angles = {"a": 0.0, "b": 0.3, "c": -0.3, "e": -0.5, "f": 2.0}
    _embedded(db, tmp_path, angles)
    block(db, "r", BlockConfig(strategies=("kmeans",), k=20))  # one block (k-means k = 1), k > its size
    assert _pairs(db, "r", "kmeans") == {(e(x), e(y)) for x in angles for y in angles if x < y}


def test_kmeans_block_count_follows_deg_rag():
    assert [kmeans_k(n) for n in (0, 10, 1000, 100_000)] == [1, 1, 10, 100]


def _entities(db, rows: list[tuple[str, str]]) -> None:
    db.run("UNWIND $rows AS row CREATE (:Entity {id: row[0], name: row[1], aliases: [row[1]], "
           "search_key: row[1], type: 'PERSON'})", rows=rows)


def test_lexical_pairs_ignore_deleted_entities_still_counted_by_the_index(db):
    # "holmes" is rarer than "baker" among live entities, so e1 ("holmes baker") pairs with e2
    # ("holmes") at k=1. Thirty deleted "holmes" entities stay in Lucene's BM25 statistics until a
    # segment merge nobody schedules; counted, they make "baker" the rarer word and e1 would pair with
    # a1 instead, on some runs and not others.
    _entities(db, [("a1", "baker lane"), ("a2", "baker row"), ("a3", "baker street"),
                   ("e1", "holmes baker"), ("e2", "holmes")])
    _entities(db, [(f"gone{i:02d}", f"holmes gone{i:02d}") for i in range(30)])
    db.run("MATCH (e:Entity) WHERE e.id STARTS WITH 'gone' DETACH DELETE e")

    block(db, "r1", BlockConfig(strategies=("lexical",), k=1))

    assert _lexical_pairs(db, "r1") == {("a1", "a2"), ("a1", "a3"), ("e1", "e2")}


def test_lexical_partners_are_the_best_hits_by_score_then_id_however_many_tie(db, monkeypatch):
    # 130 "cratchit wNNN" score alike for "cratchit", and are created highest id first, so the index's
    # own order among equal scores is not the ids'. Its first 101 hits are p129..p029: taken as they
    # come, the 15 partners would be p029..p043. Every hit ordered, they are p000..p014.
    _entities(db, [(f"p{i:03d}", f"cratchit w{i:03d}") for i in range(129, -1, -1)] + [("q", "cratchit")])
    fetched, read = [], db.read

    def counted(name, **params):
        fetched.append(params.get("fetch"))
        return read(name, **params)

    monkeypatch.setattr(db, "read", counted)
    rows = block_module._lexical(db, ["q", "p000"], 15, {})
    every = read("resolve_block_lexical", _plain=True, ids=["q", "p000"], k=15, expand={}, fetch=None)
    assert {r["id"]: r["others"] for r in rows} == {r["id"]: r["others"] for r in every}
    assert next(r["others"] for r in rows if r["id"] == "q") == [f"p{i:03d}" for i in range(15)]
    assert fetched == list(block_module.LEXICAL_FETCH[:2])  # the tie asked again, for more; not for all


def test_exact_blocking_recreates_the_key_index_a_graph_initialised_earlier_lacks(db, tmp_path):
    # resolve_block_exact names the (key_core, id) index in a hint, which fails where it does not exist
    _names(db, tmp_path, [("a", "Baker Street|GEO"), ("b", "baker street|ORGANIZATION"), ("c", "Other Place|GEO")])
    db.run("DROP INDEX entity_key_core_id IF EXISTS")
    block(db, "r", BlockConfig(strategies=("exact",)))
    assert _pairs(db, "r", "exact") == {(e("a"), e("b"))}
    assert db.run("SHOW INDEXES YIELD name WHERE name = 'entity_key_core_id' RETURN count(*) AS n") == [{"n": 1}]


def test_typo_tolerant_words_are_spelt_out_as_the_graph_words_one_edit_away():
    words = FuzzyWords(["Portland Oregon", "Portlnd", "Porltand", "Portlands", "Pordlant", "O'Brien", "Sherlock"])
    # a deletion, a swap of neighbours, an insertion, not two edits; the word itself when the graph has it
    assert words.near("portland") == ["portland", "porltand", "portlands", "portlnd"]
    assert words.near("obrien") == ["o'brien"]
    assert words.spell_out(["+portland~1 +oregon~1 pdx", "sherlocks~1", "+moriarty~1"]) == {
        "+portland~1": "+(portland porltand portlands portlnd)", "+oregon~1": "+(oregon)",
        "sherlocks~1": "(sherlock)"}  # no word near "moriarty": Lucene answers that term itself
    assert index_words("O'Brien & Sons, U.S. 東京 Müller") == ["o'brien", "sons", "u.s", "東", "京", "müller"]


def test_lexical_pairs_with_spelt_out_words_are_those_lucene_finds_by_edit_distance(db, tmp_path):
    # a pass over every entity spells the ~1 words out; an increment (walk) leaves them to Lucene
    _names(db, tmp_path, [("a", "Portland Oregon|GEO"), ("b", "Portlnd Oregon|GEO"), ("c", "Porltand|GEO"),
                          ("d", "Sherlock Holmes|PERSON"), ("e", "Sherlok Holmes|PERSON"), ("f", "Holmes|PERSON"),
                          ("g", "O'Brien Consulting|ORGANIZATION"), ("h", "OBrien Consultng|ORGANIZATION"),
                          ("i", "Portmanteau Words|CONCEPT")])
    cfg = BlockConfig(strategies=("lexical",))
    ids = sorted(e(x) for x in "abcdefghi")
    spelt, lucene = propose(db, cfg), propose(db, cfg, focus=ids, incremental=True)
    assert set(spelt) == set(lucene)
    assert {(e("a"), e("b")), (e("a"), e("c")), (e("d"), e("e")), (e("g"), e("h"))} <= set(spelt)
    assert not any(e("i") in p for p in spelt)


def test_an_increments_reads_on_threads_propose_what_they_propose_one_after_another(db, tmp_path, monkeypatch):
    from kgres.resolve import block as block_module
    recs = [{"kind": "mention", "id": i, "name": n, "type": t, **({"attributes": a} if a else {})} for i, n, t, a in [
        ("a", "Sherlock Holmes", "PERSON", {"dob": "1854-01-06"}), ("b", "sherlock holmes", "PERSON", {}),
        ("c", "S. Holmes", "PERSON", {"dob": "1854-01-06"}), ("d", "Baker Street", "GEO", {}),
        ("e", "Baker St", "GEO", {}), ("f", "Lumix DMC-FX777 Camera", "PRODUCT", {}),
        ("g", "DMCFX777 Digital Camera", "PRODUCT", {}), ("h", "British Broadcasting Corporation", "ORGANIZATION", {}),
        ("i", "BBC", "ORGANIZATION", {})]]
    recs += [{"kind": "triple", "subject": s, "predicate": "LIVES_AT", "object": o}
             for s, o in [("a", "d"), ("c", "e")]]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "inc.jsonl", recs))
    normalize(db)
    cfg = BlockConfig(strategies=("exact", "acronym", "lexical", "structural", "attributes", "codes"))
    focus = [e(i) for i in "acfi"]
    monkeypatch.setattr(block_module, "READERS", 1)
    one_by_one = propose(db, cfg, focus=focus, incremental=True)
    monkeypatch.setattr(block_module, "READERS", 3)
    done, total = [], []
    threaded = propose(db, cfg, focus=focus, incremental=True, on_batch=done.append, on_total=total.append)
    assert dict(threaded) == dict(one_by_one)
    assert set(threaded.by_strategy()) >= {"exact", "acronym", "attributes", "codes"}  # every kind of read ran
    # progress: each entity once by the structural walk and once by the per-entity reads, as announced
    assert total == [2 * len(focus)] and sum(done) == 2 * len(focus)


def test_a_whole_pass_reads_its_pages_side_by_side_and_proposes_what_it_proposes_one_after_another(
        db, tmp_path, monkeypatch):
    from kgres.resolve import block as block_module
    _names(db, tmp_path, [("a", "Sherlock Holmes|PERSON"), ("b", "sherlock holmes|PERSON"), ("c", "S. Holmes|PERSON"),
                          ("d", "Mycroft Holmes|PERSON"), ("e", "Baker Street|GEO"), ("f", "Baker St|GEO"),
                          ("g", "British Broadcasting Corporation|ORGANIZATION"), ("h", "BBC|ORGANIZATION")])
    cfg = BlockConfig(strategies=("exact", "acronym", "holders", "lexical"), batch_size=2)  # four pages
    monkeypatch.setattr(block_module, "WHOLE_READERS", 1)
    one_by_one = propose(db, cfg)
    monkeypatch.setattr(block_module, "WHOLE_READERS", 2)
    done, total = [], []
    side_by_side = propose(db, cfg, on_batch=done.append, on_total=total.append)
    assert list(side_by_side) == list(one_by_one) and dict(side_by_side) == dict(one_by_one)
    assert {(e("a"), e("b")), (e("g"), e("h"))} <= set(side_by_side)
    assert total == [8] and sum(done) == 8 and len(done) == 4  # each page once, in order


def test_a_failed_read_of_an_increment_fails_its_blocking_with_the_databases_error(db, tmp_path, monkeypatch):
    from kgres.errors import KgresError
    _names(db, tmp_path, [("a", "Sherlock Holmes|PERSON"), ("b", "sherlock holmes|PERSON"), ("c", "S. Holmes|PERSON")])
    real = db.read

    def read(name, *a, **kw):  # the server fails the lexical read: a division by zero at run time
        return real(name, "UNWIND $ids AS id RETURN id, [1 / 0] AS others", **kw) \
            if name == "resolve_block_lexical" else real(name, *a, **kw)

    monkeypatch.setattr(db, "read", read)
    with pytest.raises(KgresError, match="resolve_block_lexical"):
        propose(db, BlockConfig(strategies=("exact", "lexical", "acronym")), focus=[e("a")], incremental=True)


def test_a_failed_read_of_a_whole_pass_stops_the_reads_not_yet_started(db, tmp_path, monkeypatch):
    import time

    from kgres.errors import KgresError
    _names(db, tmp_path, [(c, f"Name {c}|PERSON") for c in "abcdefgh"])
    real, called = db.read, []

    def read(name, *a, **kw):  # the first page's lexical read fails at once; each exact read takes a while
        if name == "resolve_block_lexical":
            called.append(name)
            return real(name, "UNWIND $ids AS id RETURN id, [1 / 0] AS others", **kw)
        if name == "resolve_block_exact":
            called.append(name)
            time.sleep(0.1)
        return real(name, *a, **kw)

    monkeypatch.setattr(db, "read", read)
    with pytest.raises(KgresError, match="resolve_block_lexical"):
        propose(db, BlockConfig(strategies=("lexical", "exact"), batch_size=1))  # 16 reads queued, two at a time
    # not all 16: Executor.map cancels the reads not yet started once one fails (or the caller is interrupted)
    assert called[0] == "resolve_block_lexical" and len(called) <= 4


def test_an_increments_attribute_and_code_pairs_from_the_index_are_those_a_pass_proposes_for_it(db, tmp_path):
    recs = [{"kind": "mention", "id": i, "name": n, "type": "PERSON" if a else "PRODUCT",
             **({"attributes": a} if a else {})} for i, n, a in [
        ("a", "Jon Smith", {"dob": "1980-02-03", "postcode": "NW1 6XE", "sex": "m"}),
        ("b", "John Smyth", {"dob": "03/02/1980", "postcode": "nw16xe", "sex": "m"}),
        ("c", "J Smith", {"dob": "1980-02-03", "sex": "m"}),
        ("d", "Mary Jones", {"dob": "1975-11-30", "sex": "f"}),
        ("e", "M. Jones", {"dob": "1975-11-30", "postcode": "SW1A 1AA", "sex": "m"}),
        ("f", "Lumix DMC-FX777 Camera", None), ("g", "Panasonic DMCFX777", None),
        ("h", "Canon SD850IS", None), ("i", "Kodak Easyshare", None)]]
    path = write_jsonl(tmp_path / "values.jsonl", recs)
    ingest.ingest(db, "jsonl", path)
    normalize(db)
    stored = {r["id"]: r["values"] for r in db.run("MATCH (m:Mention) RETURN m.id AS id, m.block_values AS values")}
    assert stored["jsonl:b"] == ["a:dob=19800203", "a:postcode=nw16xe", "a:sex=m"]
    assert stored["jsonl:f"] == ["c:dmcfx777"] and stored["jsonl:i"] == []
    cfg = BlockConfig(strategies=("attributes", "codes"), max_value_share=3)
    focus = [e(i) for i in "bdfh"]
    indexed = propose(db, cfg, focus=focus, incremental=True)
    read_whole = propose(db, cfg, focus=focus, incremental=False)
    assert dict(indexed) == dict(read_whole)
    # "sex=m" (4 entities) is more than max_value_share carry: it pairs nothing, the dates and postcodes do
    assert set(indexed) == {(e("a"), e("b")), (e("b"), e("c")), (e("d"), e("e")), (e("f"), e("g"))}


def test_mentions_imported_without_blocking_values_get_them_filled(db, tmp_path):
    from kgres.resolve.block import fill_mention_values
    recs = [{"kind": "mention", "id": "a", "name": "Canon SD850IS", "attributes": {"price": "$199.00"}},
            {"kind": "mention", "id": "b", "name": "Sherlock Holmes"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "old.jsonl", recs))
    written = {r["id"]: r["v"] for r in db.run("MATCH (m:Mention) RETURN m.id AS id, m.block_values AS v")}
    db.run("MATCH (m:Mention) REMOVE m.block_values")  # as an import by an earlier kgres left them
    assert fill_mention_values(db, page=1) == 2
    assert {r["id"]: r["v"] for r in db.run("MATCH (m:Mention) RETURN m.id AS id, m.block_values AS v")} == written
    assert written == {"jsonl:a": ["a:price=19900", "c:sd850is"], "jsonl:b": []}
    assert fill_mention_values(db) == 0


def test_holder_pairs_join_a_short_form_to_the_names_it_can_stand_for_however_many_share_its_words(db, tmp_path):
    """Twelve other Conways outrank "Jane Conway" for lexical and semantic blocking at k = 3; the holders
    strategy still pairs "J. Conway" and "Conway" with her, never with a name of another type or initial
    (or "J. Conway" with "Conway"); untyped single words are left to the other strategies."""
    others = [(f"o{i}", f"{g} Conway|PERSON") for i, g in enumerate(
        ["Aaron", "Bea", "Carl", "Dora", "Emil", "Fay", "Gus", "Hana", "Ivo", "Kai", "Lea", "Max"])]
    _names(db, tmp_path, [("a", "Jane Conway|PERSON"), ("b", "J. Conway|PERSON"), ("c", "Conway|PERSON"),
                          ("d", "Conway|ORGANIZATION"), ("g", "Gates"), ("h", "Bill Gates"), *others])
    db.run("MATCH (e:Entity {id: $id}) SET e.mention_count = 3", id=e("a"))  # as merged copies leave it
    pairs = set(propose(db, BlockConfig(strategies=("holders",), k=3)))
    assert {(e("a"), e("b")), (e("a"), e("c"))} <= pairs
    assert (e("b"), e("c")) not in pairs and not any({e("d"), e("g")} & set(p) for p in pairs)
    assert not any(tuple(sorted((e("b"), e(o)))) in pairs for o, _ in others)  # J. is none of theirs
    assert sum(e("c") in p for p in pairs) == 3  # the k most mentioned holders: Jane Conway first
    assert sum(e("a") in p for p in pairs) == 2


def test_nickname_pairs_join_a_full_name_to_its_nickname_under_the_same_surname_both_ways(db, tmp_path):
    """"Bob Cratchit" and "Robert Cratchit" share only the surname six other Cratchits carry; the
    nicknames strategy pairs the two, from either side and for an increment, and nothing else: not
    another surname, not a name of another type or length, not a given name the table links to
    "robert" only by genealogy ("Bill Cratchit")."""
    others = [(f"o{i}", f"{g} Cratchit|PERSON") for i, g in enumerate(["Martha", "Belinda", "Peter", "Tim",
                                                                      "Alan", "Ruth"])]
    _names(db, tmp_path, [("a", "Bob Cratchit|PERSON"), ("b", "Robert Cratchit|PERSON"), ("c", "Robert Smith|PERSON"),
                          ("d", "Robert Cratchit|ORGANIZATION"), ("f", "Bill Cratchit|PERSON"),
                          ("g", "Robert J. Cratchit|PERSON"), *others])
    pairs = set(propose(db, BlockConfig(strategies=("nicknames",), k=3)))
    assert pairs == {(e("a"), e("b"))}
    assert set(propose(db, BlockConfig(strategies=("nicknames",)), focus=[e("a")], incremental=True)) == pairs
    assert set(propose(db, BlockConfig(strategies=("nicknames",)), focus=[e("b")], incremental=True)) == pairs


def test_an_increment_finds_values_whose_keys_lucene_would_parse(db, tmp_path):
    """Attribute keys are free text: quotes, backslashes, colons and Lucene operators reach the index
    lookup as one quoted term, not as query syntax."""
    key = 'he said "no" \\ AND: (x)*'
    recs = [{"kind": "mention", "id": i, "name": n, "type": "PERSON", "attributes": {key: "A-17"}}
            for i, n in (("a", "Ann Lee"), ("b", "Anne Leigh"))]
    recs.append({"kind": "mention", "id": "c", "name": "Bo Chan", "type": "PERSON", "attributes": {key: "b-18"}})
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "keys.jsonl", recs))
    normalize(db)
    cfg = BlockConfig(strategies=("attributes",))
    assert set(propose(db, cfg, focus=[e("a")], incremental=True)) == {(e("a"), e("b"))}
    assert dict(propose(db, cfg, focus=[e("a"), e("c")], incremental=True)) == \
        dict(propose(db, cfg, focus=[e("a"), e("c")], incremental=False))
