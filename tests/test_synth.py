"""kgres synth: deterministic for a seed, carries the variants and traps it promises, and loads."""

from __future__ import annotations

import json

from kgres.evaluate import clusters, gold
from kgres import ingest
from kgres.evaluate.synth import generate, gold_of


def test_same_seed_same_bytes_other_seed_other_graph(tmp_path):
    a = generate(tmp_path / "a.jsonl", tmp_path / "a.gold.jsonl", 3000, seed=5)
    b = generate(tmp_path / "b.jsonl", tmp_path / "b.gold.jsonl", 3000, seed=5)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert (tmp_path / "a.gold.jsonl").read_bytes() == (tmp_path / "b.gold.jsonl").read_bytes()
    assert a == b and a.mentions == 3000
    generate(tmp_path / "c.jsonl", tmp_path / "c.gold.jsonl", 3000, seed=6)
    assert (tmp_path / "c.jsonl").read_bytes() != (tmp_path / "a.jsonl").read_bytes()


def test_variants_and_traps_are_there(tmp_path):
    stats = generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 6000, seed=3)
    lines = [json.loads(line) for line in (tmp_path / "g.jsonl").read_text(encoding="utf-8").splitlines()]
    gold = gold_of(tmp_path / "g.gold.jsonl")
    mentions = [r for r in lines if r["kind"] == "mention"]
    names = {r["name"] for r in mentions}
    assert any(n.startswith(("Dr. ", "Prof. ")) for n in names)                       # honorifics
    assert any(n.startswith(("Bob ", "Bill ", "Liz ", "Peggy ", "Andy ")) for n in names)  # nicknames
    assert any("ü" in n or "ø" in n for n in names) and any("ue" in n or "oe" in n for n in names)  # translit
    assert any(n.startswith("The ") for n in names) and any(n.endswith("'s") for n in names)
    assert any(n.isupper() and len(n) == 3 for n in names)                             # acronyms
    types_per_entity: dict[str, set] = {}
    for r in mentions:
        types_per_entity.setdefault(gold[r["id"]], set()).add(r["type"])
    assert any(len(t) > 1 for t in types_per_entity.values())                          # typed two ways
    assert stats.homonym_pairs > 0 and any(c.endswith("h") for c in gold.values())     # homonyms
    assert stats.missing_endpoints > 0
    # every triple carries the sentence an extractor writes, and its chunk's text says it
    name_of = {r["id"]: r["name"] for r in mentions}
    text_of = {r["id"]: r["text"] for r in lines if r["kind"] == "chunk"}
    for t in (r for r in lines if r["kind"] == "triple"):
        assert t["description"].startswith(name_of[t["subject"]] + " ") and t["description"] in text_of[t["chunk_id"]]
    surnames: dict[str, set] = {}
    for r in mentions:
        if r["type"] == "PERSON" and len(r["name"].split()) == 2:
            surnames.setdefault(r["name"].split()[1], set()).add(gold[r["id"]])
    assert any(len(people) > 1 for people in surnames.values())                        # relatives


def test_generated_graph_loads_and_evaluates(db, tmp_path):
    stats = generate(tmp_path / "g.jsonl", tmp_path / "g.gold.jsonl", 500, seed=1)
    result = ingest.ingest(db, "jsonl", tmp_path / "g.jsonl")
    assert (result.mentions, result.inferred_mentions) == (stats.mentions + stats.missing_endpoints,
                                                          stats.missing_endpoints)  # inferred ones count too
    before = clusters.clusters(db, gold.load_gold(tmp_path / "g.gold.jsonl"))
    assert before.items == 500 and before.pairwise["p"] == 1.0 and before.pairwise["r"] == 0.0


def test_cli_synth(tmp_path):
    from click.testing import CliRunner

    from kgres.cli import main

    out = CliRunner().invoke(main, ["synth", str(tmp_path / "s.jsonl"), "--mentions", "100", "--json"],
                             catch_exceptions=False)
    assert out.exit_code == 0
    doc = json.loads(out.output)
    assert doc["mentions"] == 100 and (tmp_path / "s.gold.jsonl").is_file()


def test_topics_whose_names_were_all_taken_still_get_homonyms(tmp_path):
    """Past the name space (1M mentions, or small topics) some topics keep no entity of their own;
    a homonym moved into one opens it instead of failing."""
    stats = generate(tmp_path / "s.jsonl", tmp_path / "g.jsonl", 20_000, topic_size=1)
    assert stats.mentions >= 20_000
    assert sum(1 for line in open(tmp_path / "g.jsonl") if json.loads(line)["cluster"].endswith("h")) > 0
