"""kgres eval: hand-computed metric values (including the degenerate cases), and eval clusters,
sweep and paths on the real database."""

from __future__ import annotations

import json

import pytest

from kgres.evaluate import clusters, paths
from kgres.evaluate import gold as goldfile
from kgres import ingest
from kgres.resolve import merge
from kgres.evaluate import metrics
from kgres.errors import InputError
from kgres.resolve import ResolveConfig, resolve
from tests.graphs import write_jsonl
from tests.test_resolve import fixture

PRED = {"a": "1", "b": "1", "c": "1", "d": "2", "e": "3"}
GOLD = {"a": "X", "b": "X", "c": "Y", "d": "Y", "e": "Z"}


def test_known_answers_by_hand():
    pw = metrics.pairwise(PRED, GOLD)   # predicted pairs ab ac bc; gold pairs ab cd; both ab
    assert (pw["p"], pw["r"], pw["false_merges"], pw["missed"]) == (pytest.approx(1 / 3), 0.5, 2, 1)
    assert pw["f1"] == pytest.approx(0.4)
    b3 = metrics.bcubed(PRED, GOLD)     # per item p: 2/3 2/3 1/3 1 1; r: 1 1 1/2 1/2 1
    assert (b3["p"], b3["r"]) == (pytest.approx(11 / 15), pytest.approx(0.8))
    c = metrics.cesi(PRED, GOLD)        # pure predicted: 2 of 3; whole gold: X and Z of 3
    assert (c["macro_p"], c["macro_r"], c["micro_p"], c["micro_r"]) == pytest.approx((2 / 3, 2 / 3, 0.8, 0.8))


def test_degenerate_cases():
    for m in (metrics.pairwise({}, {}), metrics.bcubed({}, {})):            # empty gold
        assert (m["p"], m["r"]) == (1.0, 1.0)
    assert metrics.cesi({}, {})["macro_f1"] == 1.0
    single = {k: k for k in "abcd"}
    assert metrics.pairwise(single, single)["f1"] == 1.0                  # singletons only: nothing to pair
    assert metrics.bcubed(single, single)["f1"] == 1.0
    giant = {k: "all" for k in "abcd"}                                     # one giant cluster
    pw = metrics.pairwise(giant, single)
    assert (pw["p"], pw["r"], pw["f1"], pw["false_merges"]) == (0.0, 1.0, 0.0, 6)
    assert metrics.bcubed(giant, single)["p"] == pytest.approx(0.25)
    assert metrics.cesi(giant, single)["macro_p"] == 0.0
    assert metrics.pairwise(PRED, {"zz": "X"})["p"] == 1.0                # gold items missing from pred


def test_gold_files_and_their_errors(tmp_path):
    j = tmp_path / "g.jsonl"
    j.write_text('{"mention_id": "a", "cluster": "X"}\n\n{"mention_id": 7, "cluster": "Y"}\n')
    assert goldfile.load_gold(j).clusters == {"a": "X", "7": "Y"}
    c = tmp_path / "g.csv"
    c.write_text("id_a,id_b,label\na,b,1\nb,c,same\nc,d,0\n")
    g = goldfile.load_gold(c)
    assert g.pairs == [("a", "b", True), ("b", "c", True), ("c", "d", False)]
    assert g.clusters["a"] == g.clusters["c"] != g.clusters["d"]
    j.write_text('{"mention_id": "a"}\n')
    with pytest.raises(InputError, match=r"g.jsonl, line 1, field 'cluster'"):
        goldfile.load_gold(j)
    c.write_text("a,b,maybe\n")
    with pytest.raises(InputError, match=r"line 1, field 'label': label 'maybe'"):
        goldfile.load_gold(c)


SHERLOCK = {"sh1", "sh2", "sh3", "sh4", "sh5"}


def gold_file(tmp_path):
    from tests.test_resolve import MENTIONS
    rows = [{"mention_id": i, "cluster": "sherlock" if i in SHERLOCK else "bs" if i.startswith("bs")
             else "llm" if i.startswith("llm") else i} for i, *_ in MENTIONS if i != "js1"]
    return write_jsonl(tmp_path / "gold.jsonl", rows)


def test_eval_clusters_before_and_after_resolution(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    gold = goldfile.load_gold(gold_file(tmp_path))
    before = clusters.clusters(db, gold)
    assert before.pairwise["p"] == 1.0 and before.pairwise["r"] == 0.0 and before.pairwise["missed"] == 12
    assert before.missed_merge_examples and not before.false_merge_examples
    stats = resolve(db)
    after = clusters.clusters(db, gold, sweep=True)
    assert (after.pairwise["p"], after.pairwise["r"]) == (1.0, 1.0)
    assert after.by_type["PERSON"].pair_r == 1.0 and set(after.by_name_frequency) <= {"1", "2-4", "5+"}
    points = {p.threshold: p for p in after.sweep}
    own = round(stats.auto_threshold, 2)                                 # the run's own threshold (probability)
    assert points[own].p == 1.0 and points[own].r > 0                  # its first scored pass (later ones add)
    recalls = [p.r for p in after.sweep]
    assert recalls == sorted(recalls, reverse=True) and recalls[0] > recalls[-1]
    assert after.usable_window is not None


def test_eval_clusters_with_pairs_and_a_false_merge(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    stats = resolve(db, ResolveConfig(strategy="deg-rag"))
    pairs = tmp_path / "pairs.csv"
    pairs.write_text("sh1,sh2,1\nsh1,my1,0\nbs1,bs2,1\nap1,ap2,0\n")
    result = clusters.clusters(db, goldfile.load_gold(pairs))
    assert result.pairwise["false_merges"] + result.pairwise["missed"] >= 1   # Deg-Rag gets something wrong
    merge.rollback(db, stats.run_id)


def test_eval_paths_connect_only_after_resolution(db, tmp_path):
    recs = [{"kind": "chunk", "id": f"c{i}", "text": "t"} for i in (1, 2)]
    recs += [{"kind": "mention", "id": "s1", "name": "Sherlock Holmes", "type": "PERSON", "chunk_id": "c1"},
             {"kind": "mention", "id": "w1", "name": "Dr. Watson", "type": "PERSON", "chunk_id": "c1"},
             {"kind": "mention", "id": "s2", "name": "Mr. Sherlock Holmes", "type": "PERSON", "chunk_id": "c2"},
             {"kind": "mention", "id": "b2", "name": "Baker Street", "type": "GEO", "chunk_id": "c2"}]
    recs += [{"kind": "triple", "subject": "w1", "predicate": "FRIEND_OF", "object": "s1"},
             {"kind": "triple", "subject": "s2", "predicate": "LIVES_AT", "object": "b2"}]
    ingest.ingest(db, "jsonl", write_jsonl(tmp_path / "p.jsonl", recs))
    q = tmp_path / "q.jsonl"
    q.write_text(json.dumps({"id": "lodger", "question": "Where does Watson's friend live?",
                             "chain": ["Dr. Watson", "Sherlock Holmes", "Baker Street"]}) + "\n"
                 + json.dumps({"chain": ["Dr. Watson", "Sherlock Holmes"]}) + "\n")
    questions = paths.load_questions(q)
    before = paths.paths(db, questions)
    assert (before.before, before.after) == (0.5, 0.5)                 # only the one-hop chain
    resolve(db)
    after = paths.paths(db, questions)
    assert (after.before, after.after) == (0.5, 1.0)                    # the lodger chain now connects
    q.write_text('{"chain": ["only one"]}\n')
    with pytest.raises(InputError, match="line 1, field 'chain'"):
        paths.load_questions(q)


def test_cli_eval(db, neo4j_env, tmp_path):
    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    cli = CliRunner()
    out = cli.invoke(main, ["eval", "clusters", "--gold", str(gold_file(tmp_path)), "--sweep", "--json"],
                     catch_exceptions=False)
    assert out.exit_code == 0
    doc = json.loads(out.output)
    assert doc["pairwise"]["f1"] == 1.0 and len(doc["sweep"]) == 21
    table = cli.invoke(main, ["eval", "clusters", "--gold", str(gold_file(tmp_path)), "--sweep"])
    assert table.exit_code == 0 and "usable window" in table.output and "CESI macro" in table.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text("{not json\n")
    out = cli.invoke(main, ["eval", "clusters", "--gold", str(bad)])
    assert out.exit_code == 1 and "bad.jsonl, line 1" in out.stderr
