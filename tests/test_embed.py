"""The embed stage on the real database: the bundled model, an HTTP endpoint, FastRP, staleness."""

from __future__ import annotations

import pytest

from kgres import ingest
from kgres.resolve import embed as embed_module
from kgres.resolve.embed import EmbedConfig, embed, embed_text, encode_ahead
from kgres.errors import ConfigError, KgresError
from tests.openai_server import OpenAIServer
from tests.graphs import write_jsonl

RECORDS = [
    {"kind": "chunk", "id": "c1", "text": "Sherlock Holmes lived at Baker Street with Watson."},
    {"kind": "mention", "id": "a", "name": "Sherlock Holmes", "type": "PERSON", "chunk_id": "c1",
     "description": "A consulting detective."},
    {"kind": "mention", "id": "b", "name": "Baker Street", "type": "GEO", "chunk_id": "c1"},
    {"kind": "mention", "id": "c", "name": "Dr. Watson", "type": "PERSON", "chunk_id": "c1"},
    {"kind": "mention", "id": "d", "name": "a violin", "type": "OBJECT", "chunk_id": "c1"},  # no relations
    {"kind": "triple", "subject": "a", "predicate": "LIVES_AT", "object": "b"},
    {"kind": "triple", "subject": "c", "predicate": "LIVES_AT", "object": "b"},
]


@pytest.fixture
def graph(db, tmp_path):
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", RECORDS))
    return db


def vectors(db, prop: str) -> dict[str, list[float] | None]:
    return {r["id"]: r["v"] for r in db.run(f"MATCH (e:Entity) RETURN split(e.id, ':')[-1] AS id, e.{prop} AS v")}


def test_text_includes_type_and_description():
    assert embed_text("Sherlock Holmes", "PERSON", "A consulting detective who plays the violin.", 10) == \
        "Sherlock Holmes (person): A consulti"
    assert embed_text(" Baker Street ", None, None, 200) == "Baker Street"


def test_bundled_model_embeds_once_and_again_only_what_changed(graph):
    first = embed(graph)
    assert (first.entities, first.embedded, first.dimensions) == (4, 4, 384)
    text = vectors(graph, "embedding")
    assert all(len(v) == 384 for v in text.values())
    assert abs(sum(x * x for x in text["a"]) - 1) < 1e-3                   # normalised
    assert embed(graph).embedded == 0                                      # nothing changed
    graph.run("MATCH (e:Entity {id: 'ent:jsonl:c'}) SET e.description = 'Holmes\\'s friend, a doctor.'")
    assert embed(graph).embedded == 1
    hits = graph.run("MATCH (e:Entity {id: 'ent:jsonl:a'}) "
                     "CALL db.index.vector.queryNodes('entity_embedding', 1, e.embedding) YIELD node "
                     "RETURN node.id AS k")
    assert hits == [{"k": "ent:jsonl:a"}]                                            # indexed


def test_fastrp_is_seeded_and_skips_isolated_entities(graph):
    embed(graph)
    fastrp, context = vectors(graph, "fastrp"), vectors(graph, "context_embedding")
    assert fastrp["d"] is None and context["d"] is None                    # no neighbours: no vector
    assert all(len(fastrp[k]) == 128 for k in "abc")
    graph.run("MATCH (e:Entity) REMOVE e.fastrp, e.context_embedding")
    embed(graph)
    assert vectors(graph, "fastrp") == fastrp                              # same seed, same vectors
    # a and c both live at b: their neighbourhoods are the same, so their context vectors are too
    assert context["a"] == pytest.approx(context["c"])


def test_topology_is_written_apart_from_the_context(graph):
    embed(graph, topology=False)
    assert all(v is None for v in vectors(graph, "fastrp").values())      # context only
    context = vectors(graph, "context_embedding")
    assert all(len(context[k]) == 384 for k in "abc")                    # the text embeddings' length
    embed_module.topology(graph, 128, EmbedConfig().fastrp_seed)
    assert vectors(graph, "context_embedding") == context                  # left as it was
    both = vectors(graph, "fastrp")
    graph.run("MATCH (e:Entity) REMOVE e.fastrp, e.context_embedding")
    embed(graph)
    assert vectors(graph, "fastrp") == both and vectors(graph, "context_embedding") == context


def test_a_resolve_writes_the_topology_of_its_final_graph(graph):
    from kgres.resolve import ResolveConfig, resolve

    resolve(graph, ResolveConfig())
    after = vectors(graph, "fastrp")
    assert after["a"] is not None                                         # written by the resolve
    graph.run("MATCH (e:Entity) REMOVE e.fastrp")
    embed_module.topology(graph, 128, EmbedConfig().fastrp_seed)
    assert vectors(graph, "fastrp") == after                               # as of the graph it left


def test_endpoint_over_http(graph):
    with OpenAIServer() as server:
        cfg = EmbedConfig(endpoint=server.base_url, model="test-embedder", fastrp=False)
        stats = embed(graph, cfg)
        assert (stats.embedded, stats.dimensions) == (4, 384)
        stored = vectors(graph, "embedding")["b"]
        expected = server.vector(embed_text("Baker Street", "GEO", None, 200))
        norm = sum(x * x for x in expected) ** 0.5
        assert stored == pytest.approx([x / norm for x in expected], abs=1e-6)
        assert all(r["body"]["model"] == "test-embedder" for r in server.requests)
        server.fail_next(429, '{"error": {"message": "slow down"}}', {"Retry-After": "0"})
        graph.run("MATCH (e:Entity {id: 'ent:jsonl:b'}) SET e.description = 'A street in London.'")
        assert embed(graph, cfg).embedded == 1                             # retried after the 429


def test_endpoint_failures_are_named_and_write_nothing(graph):
    with OpenAIServer() as server:
        cfg = EmbedConfig(endpoint=server.base_url, model="m", fastrp=False)
        server.fail_next(500, "not json at all", times=10)
        with pytest.raises(KgresError, match="embeddings endpoint .* failed"):
            embed(graph, cfg)
        url = server.base_url
    with pytest.raises(KgresError, match="embeddings endpoint"):           # server gone
        embed(graph, EmbedConfig(endpoint=url, model="m", fastrp=False, timeout_s=2))
    assert all(v is None for v in vectors(graph, "embedding").values())


def test_unknown_model_is_a_config_error(graph):
    with pytest.raises(ConfigError, match="cannot load embedding model 'no-such-model-anywhere' offline"):
        embed(graph, EmbedConfig(model="no-such-model-anywhere"))


def test_dimension_mismatch_with_the_index_is_a_config_error(graph):
    with OpenAIServer(dimensions=16) as server:
        with pytest.raises(ConfigError, match="16-dimensional vectors but the entity_embedding index has 384"):
            embed(graph, EmbedConfig(endpoint=server.base_url, model="small"))


def test_the_query_encoder_gives_the_batch_encoders_vectors():
    from kgres.encoders import load_encoder
    from kgres.encoders.query import load_query_encoder
    from kgres.resolve.embed import EmbedConfig

    batch, _ = load_encoder(EmbedConfig(bf16="off"))
    traced, plain = load_query_encoder(EmbedConfig()), load_query_encoder(EmbedConfig(), trace=False)
    half = load_query_encoder(EmbedConfig(), bf16="on")
    assert traced.traced and not traced.bf16 and not plain.traced and half.traced and half.bf16
    for text in ("Who lodges at Baker Street?", "x", "", "a long question " * 40):
        a = batch([text])[0]
        for one in (traced, plain):
            b = one(text)
            assert len(a) == len(b) and sum(x * y for x, y in zip(a, b)) > 0.99999
        cos = sum(x * y for x, y in zip(a, half(text)))
        assert 0.9999 < cos < 0.9999999  # bfloat16 products: close, and not the float32 vector


def test_bf16_auto_follows_the_cpu():
    from kgres.encoders import encoder_precision
    from kgres.encoders.local import native_bf16
    from kgres.encoders.query import load_query_encoder
    from kgres.resolve.embed import EmbedConfig

    assert load_query_encoder(EmbedConfig(), bf16="auto").bf16 == native_bf16()
    assert encoder_precision(EmbedConfig()) == ("bfloat16" if native_bf16() else "float32")
    assert encoder_precision(EmbedConfig(bf16="off")) == "float32"
    assert encoder_precision(EmbedConfig(endpoint="http://127.0.0.1:9/v1", model="m")) == "endpoint"


def test_the_batch_encoder_in_bfloat16_gives_the_float32_vectors():
    """bf16 = "on" encodes batches under bfloat16 autocast where its vectors agree with float32's
    (kgres.encoders.local.precision): close to them on names, questions and long texts, not equal."""
    import numpy as np

    from kgres.encoders import encoder_precision, load_encoder
    from kgres.resolve.embed import EmbedConfig

    texts = ["Sherlock Holmes (person)", "Mycroft Holmes (person)", "x", "", "sublimation", "a long text " * 60]
    full, _ = load_encoder(EmbedConfig(bf16="off"))
    half, _ = load_encoder(EmbedConfig(bf16="on"))
    a, b = np.array(full(texts)), np.array(half(texts))
    assert encoder_precision(EmbedConfig(bf16="on")) == "bfloat16"
    cos = (a * b).sum(axis=1)
    assert cos.min() > 0.9999 and (cos < 0.9999999).any()
    assert np.allclose(np.linalg.norm(b, axis=1), 1.0, atol=1e-5)


def test_embed_reports_its_precision(graph):
    from kgres.encoders import encoder_precision

    stats = embed(graph, EmbedConfig(fastrp=False))
    assert stats.precision == encoder_precision(EmbedConfig()) and stats.embedded > 0
    assert embed(graph, EmbedConfig(bf16="off", fastrp=False)).precision == "float32"


def test_a_context_embedding_is_the_direction_of_its_neighbours_mean_text_embedding(graph):
    """Each RELATED edge adds its neighbour's unit text embedding; the sum is scaled to length 1. An
    entity without neighbours, or whose neighbours have no text embedding, has none."""
    import numpy as np

    embed(graph)
    text, context = vectors(graph, "embedding"), vectors(graph, "context_embedding")

    def unit(*vs):
        s = np.sum([np.divide(v, np.linalg.norm(v)) for v in vs], axis=0)
        return s / np.linalg.norm(s)

    # a and c live at b; b is lived at by a and c; d has no relation
    for k, around in (("a", ["b"]), ("c", ["b"]), ("b", ["a", "c"])):
        assert np.allclose(context[k], unit(*(text[n] for n in around)), atol=1e-6), k
    assert context["d"] is None
    graph.run("MATCH (e:Entity {id: 'ent:jsonl:b'}) REMOVE e.embedding")
    assert embed_module.contexts(graph, ["ent:jsonl:a", "ent:jsonl:b", "no such entity"]) == 1
    after = vectors(graph, "context_embedding")
    assert after["a"] is None and np.allclose(after["b"], context["b"], atol=1e-7)


def test_context_embeddings_an_earlier_kgres_wrote_are_recomputed_whole(graph):
    """A graph whose context embeddings are an earlier kgres's (a FastRP projection, 128 floats): an
    increment's embed, and a refresh after a rollback, recompute every one, not those around their
    entities only (vectors of two kinds would be compared with each other)."""
    embed(graph)
    current = vectors(graph, "context_embedding")
    for recompute in (lambda: embed(graph, ids=["ent:jsonl:d"]),
                      lambda: embed_module.refresh_context(graph, ["ent:jsonl:d"])):
        graph.run("MATCH (e:Entity) WHERE e.context_embedding IS NOT NULL "
                  "SET e.context_embedding = [x IN range(1, 128) | 0.1]")
        recompute()
        assert vectors(graph, "context_embedding") == current


def test_context_around_new_entities_equals_the_whole_graph(db, tmp_path):
    """An incremental resolve recomputes context embeddings only around its new entities: the vectors
    must be those of a whole recompute, a hub's (more than 100 neighbours) too."""
    from kgres import ingest
    from kgres.evaluate.synth import generate
    from kgres.resolve.embed import context_around, embed

    generate(tmp_path / "g.jsonl", tmp_path / "gold.jsonl", 400, seed=2)
    ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    ids = sorted(r["id"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id"))[50:90]
    # two predicates between one pair are two edges: the whole graph's projection counts both
    parallel = db.run("MATCH (a:Entity)-[r:RELATED]->(b:Entity) WHERE a.id IN $ids WITH a, b LIMIT 10 "
                      "CREATE (a)-[:RELATED {predicate: 'also_related_to'}]->(b) RETURN count(*) AS n", ids=ids)
    assert parallel[0]["n"] > 0
    # a hub related to 120 entities, one of them among ids
    hub = db.run("MATCH (h:Entity) WHERE NOT h.id IN $ids WITH h ORDER BY h.id LIMIT 1 "
                 "MATCH (o:Entity) WHERE o <> h WITH h, o ORDER BY o.id SKIP 40 LIMIT 120 "
                 "CREATE (h)-[:RELATED {predicate: 'knows'}]->(o) RETURN h.id AS id, collect(o.id) AS around", ids=ids)
    assert set(hub[0]["around"]) & set(ids)
    embed(db)
    whole = {r["id"]: r["v"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id, e.context_embedding AS v")}
    assert whole[hub[0]["id"]] is not None
    db.run("MATCH (e:Entity) WHERE e.id IN $ids REMOVE e.context_embedding", ids=ids + [hub[0]["id"]])
    assert context_around(db, ids, page=15) >= len(ids)
    again = {r["id"]: r["v"] for r in db.run("MATCH (e:Entity) RETURN e.id AS id, e.context_embedding AS v")}
    assert sum(v is not None for v in again.values()) > 0
    assert again == whole  # one computation, in one order: the same floats


def test_a_model_preloaded_in_the_background_fails_where_it_is_needed_and_loads_once():
    """preload() starts the load in a thread: a model that cannot load raises its ConfigError to the
    caller that needs it (not in the thread, not silently), and a good one is the same object for
    the preloading thread and every later caller."""
    from kgres.encoders import DEFAULT_MODEL
    from kgres.encoders.local import local_model, preload

    preload("no-such-model-anywhere", "cpu")
    with pytest.raises(ConfigError, match="cannot load embedding model 'no-such-model-anywhere' offline"):
        local_model("no-such-model-anywhere", "cpu")
    preload(DEFAULT_MODEL, "cpu")
    assert local_model(DEFAULT_MODEL, "cpu") is local_model(DEFAULT_MODEL, "cpu")


def test_texts_encoded_ahead_are_taken_and_only_what_changed_since_is_encoded(graph, monkeypatch):
    """encode_ahead() encodes the stale texts in a thread; embed() then writes those vectors, the
    ones a plain embed() writes, and encodes only a text that changed after the encoding began."""
    cfg = EmbedConfig(fastrp=False)
    ahead = encode_ahead(graph, cfg)
    assert sorted(ahead.take()) == sorted([
        "Sherlock Holmes (person): A consulting detective.", "Baker Street (geo)", "Dr. Watson (person)",
        "a violin (object)"])
    graph.run("MATCH (e:Entity {id: 'ent:jsonl:c'}) SET e.description = 'A doctor.'")
    real, encoded = embed_module.load_encoder, []

    def counting(c):
        encoder, dims = real(c)
        return (lambda texts: (encoded.extend(texts), encoder(texts))[1]), dims

    monkeypatch.setattr(embed_module, "load_encoder", counting)
    assert embed(graph, cfg, ahead=ahead).embedded == 4
    assert encoded == ["Dr. Watson (person): A doctor."]                   # the others came from ahead
    taken = vectors(graph, "embedding")
    graph.run("MATCH (e:Entity) REMOVE e.embedding_key")
    embed(graph, cfg)
    # a text encoded alone or in a batch of four (torch 2.15: up to 2e-5), and ahead on one thread in
    # bfloat16 (up to 3e-4), rounds a little differently
    for k, v in vectors(graph, "embedding").items():
        assert taken[k] == pytest.approx(v, abs=1e-3), k
    assert encode_ahead(graph, cfg) is None                               # nothing stale: nothing to do


def test_of_the_copies_of_a_name_only_the_one_a_collapse_keeps_is_encoded_ahead(db, tmp_path):
    """Once normalize has keyed the entities, encode_ahead() encodes one text per set of copies that
    share a collapse key: the copy the collapse keeps (the spelling written most), which a resolve
    then embeds; unkeyed, it encodes every distinct text."""
    from kgres.resolve import ResolveConfig, resolve
    from kgres.resolve.normalize import normalize

    records = [{"kind": "chunk", "id": "c1", "text": "Holmes and Watson."}] + [
        {"kind": "mention", "id": f"m{i}", "name": name, "type": "PERSON", "chunk_id": "c1"}
        for i, name in enumerate(["Sherlock Holmes", "SHERLOCK HOLMES", "Sherlock Holmes", "sherlock holmes",
                                  "Dr. Watson", "Dr Watson"])]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", records))
    cfg = EmbedConfig(fastrp=False)
    assert sorted(encode_ahead(db, cfg).take()) == [
        "Dr Watson (person)", "Dr. Watson (person)", "SHERLOCK HOLMES (person)", "Sherlock Holmes (person)",
        "sherlock holmes (person)"]
    normalize(db)
    # Holmes: the spelling written twice; Watson: of two written once each, the shorter
    assert sorted(encode_ahead(db, cfg).take()) == ["Dr Watson (person)", "Sherlock Holmes (person)"]
    resolve(db, ResolveConfig())
    kept = db.run("MATCH (e:Entity) RETURN e.name AS name ORDER BY name")
    assert [r["name"] for r in kept] == ["Dr Watson", "Sherlock Holmes"]
    # an increment: a new copy of a name the graph has collapses into it; only the new name is encoded
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "more.jsonl", [
        {"kind": "mention", "id": "n1", "name": "SHERLOCK HOLMES", "type": "PERSON", "chunk_id": "c1"},
        {"kind": "mention", "id": "n2", "name": "Mycroft Holmes", "type": "PERSON", "chunk_id": "c1"},
        {"kind": "mention", "id": "n3", "name": "Mycroft Holmes", "type": "PERSON", "chunk_id": "c1"}]),
        source="more")
    new = ["ent:more:n1", "ent:more:n2", "ent:more:n3"]
    normalize(db, ids=new)
    assert sorted(encode_ahead(db, cfg, ids=new).take()) == ["Mycroft Holmes (person)"]
    assert encode_ahead(db, cfg, ids=new[:1]) is None


def test_an_increment_s_copy_of_an_embedded_text_takes_its_vector(graph, tmp_path, monkeypatch):
    """embed() of an increment's entities reads the vector of a text the graph has already embedded
    (another entity of the same name core, embedded from the same text and model): only new texts
    reach the encoder."""
    from kgres.resolve.normalize import normalize

    cfg = EmbedConfig(fastrp=False)
    normalize(graph)
    embed(graph, cfg)
    ingest.ingest(graph, "jsonl", write_jsonl(tmp_path / "more.jsonl", [
        {"kind": "chunk", "id": "c2", "text": "Sherlock and Mycroft."},
        {"kind": "mention", "id": "n1", "name": "Sherlock Holmes", "type": "PERSON", "chunk_id": "c2",
         "description": "A consulting detective."},
        {"kind": "mention", "id": "n2", "name": "Mycroft Holmes", "type": "PERSON", "chunk_id": "c2"}]),
        source="more")
    new = ["ent:more:n1", "ent:more:n2"]
    normalize(graph, ids=new)
    encoded: list[str] = []
    real = embed_module.load_encoder

    def counting(c):
        encoder, dimensions = real(c)
        return (lambda texts: encoded.extend(texts) or encoder(texts)), dimensions

    monkeypatch.setattr(embed_module, "load_encoder", counting)
    assert embed(graph, cfg, ids=new).embedded == 2
    assert encoded == ["Mycroft Holmes (person)"]
    rows = graph.run("MATCH (e:Entity) WHERE e.name = 'Sherlock Holmes' RETURN e.embedding AS v, e.embedding_key AS k")
    assert len(rows) == 2 and rows[0] == rows[1]


def test_the_copy_encoded_ahead_is_the_one_canonical_of_keeps():
    """kept_copy() reads copies per name (a million mentions are mostly copies) and chooses the member
    canonical_of() chooses for a collapse group: on random groups of one key, always."""
    import random

    from kgres.resolve.cluster import canonical_of
    from kgres.resolve.embed import hold, kept_copy

    rng = random.Random(7)
    for _ in range(500):
        rows = [{"id": f"ent:{i:02d}", "name": rng.choice(["Holmes", "HOLMES", "Holmes.", "holmes"]),
                 "mention_count": rng.choice([None, 1, 1, 2, 3])} for i in rng.sample(range(40), rng.randint(1, 9))]
        by_name: dict = {}
        for r in rows:
            hold(by_name, r)
        ids = [r["id"] for r in rows]
        expected = canonical_of(ids, {r["id"]: r["mention_count"] or 1 for r in rows},
                                {r["id"]: r["name"] for r in rows}, {i: "holmes" for i in ids})
        assert kept_copy(by_name)["id"] == expected


def test_texts_encoded_ahead_leave_the_other_cores_to_the_database():
    """The thread encodes on one CPU thread (the caller's queries need the others) and gives torch
    its threads back when done; the vectors are those encoded on all of them, within bfloat16's
    rounding."""
    import threading

    import torch

    from kgres.resolve.embed import Ahead

    def default_threads() -> int:  # torch keeps the setting per thread: a new thread reads the default
        seen: list[int] = []
        reader = threading.Thread(target=lambda: seen.append(torch.get_num_threads()))
        reader.start()
        reader.join()
        return seen[0]

    full = default_threads()
    if full < 2:
        pytest.skip("torch computes on one thread here: there is no core to leave")
    cfg = EmbedConfig(fastrp=False)
    texts = [f"entity number {i} of a long list" for i in range(3000)]
    ahead = Ahead(cfg, texts)
    narrowed = False
    while not narrowed and ahead._thread.is_alive():
        narrowed = default_threads() == 1
    assert narrowed
    vectors = ahead.take()
    assert default_threads() == full and torch.get_num_threads() == full
    assert sorted(vectors) == sorted(texts)
    encoder, _ = embed_module.load_encoder(cfg)
    sample = texts[::300]
    for text, v in zip(sample, encoder(sample)):
        assert vectors[text] == pytest.approx(v, abs=1e-3), text


def test_encoding_ahead_is_not_for_endpoints_and_a_model_that_fails_fails_in_embed(graph):
    with OpenAIServer() as server:
        assert encode_ahead(graph, EmbedConfig(endpoint=server.base_url, model="m")) is None
        assert server.requests == []
    broken = EmbedConfig(model="no-such-model-anywhere", fastrp=False)
    ahead = encode_ahead(graph, broken)
    assert ahead.take() == {}
    with pytest.raises(ConfigError, match="cannot load embedding model 'no-such-model-anywhere' offline"):
        embed(graph, broken, ahead=ahead)


def test_context_embeddings_do_not_depend_on_the_order_the_edges_were_stored_in(db, tmp_path):
    """The same graph gives the same context embeddings, to the bit, whichever order its RELATED edges
    were stored in (which relationship ids a transaction got varies from one run to the next): a hub's
    context adds up thirty neighbours, and floats added in another order round differently."""
    from kgres.resolve.embed import context_around, embed, structural
    from tests.graphs import contexts

    people = [f"{first} {last}" for first in ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald")
              for last in ("Lovelace", "Turing", "Hopper", "Dijkstra", "Liskov")]
    records = [{"kind": "chunk", "id": "c1", "text": "Acme employs people."},
               {"kind": "mention", "id": "hub", "name": "Acme Corporation", "type": "ORG", "chunk_id": "c1"}]
    records += [{"kind": "mention", "id": f"p{i}", "name": n, "type": "PERSON", "chunk_id": "c1"}
                for i, n in enumerate(people)]
    records += [{"kind": "triple", "subject": "hub", "predicate": "EMPLOYS", "object": f"p{i}"}
                for i in range(len(people))]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "g.jsonl", records))
    embed(db)
    ids = ["ent:jsonl:hub", "ent:jsonl:p0", "ent:jsonl:p7"]

    def around() -> dict:
        db.run("MATCH (e:Entity) WHERE e.id IN $ids REMOVE e.context_embedding", ids=ids)
        context_around(db, ids)
        return {i: v for i, v in contexts(db).items() if i in ids}

    whole, near = contexts(db), around()
    edges = db.run("MATCH (a:Entity)-[r:RELATED]->(b:Entity) RETURN a.id AS a, b.id AS b, properties(r) AS p "
                   "ORDER BY a.id DESC, b.id DESC")
    db.run("MATCH (:Entity)-[r:RELATED]->(:Entity) DELETE r")
    db.run("UNWIND $rows AS row MATCH (a:Entity {id: row.a}), (b:Entity {id: row.b}) "
           "CREATE (a)-[r:RELATED]->(b) SET r = row.p", rows=edges)
    structural(db, 128, 42, topology=False)
    assert contexts(db) == whole
    assert around() == near
    assert all(v is not None for v in near.values())
