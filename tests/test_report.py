"""kgres report on the real database: known answers before and after resolution, and the HTML file
rendered in headless Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from kgres.evaluate import clusters, gold
from kgres import ingest
from kgres.resolve.normalize import normalize
from kgres.report import report
from kgres.report.html import render
from kgres.resolve import ResolveConfig, resolve
from tests.graphs import write_jsonl
from tests.test_eval import gold_file
from tests.test_resolve import MENTIONS, TRIPLES


RULES = ResolveConfig(strategy="rules")


def fixture(tmp_path):
    """The resolve fixture plus "Mr. Holmes IS Sherlock Holmes": merging makes that a self-loop."""
    recs = [{"kind": "chunk", "id": f"c{i}", "text": f"chunk {i}"} for i in range(1, 11)]
    recs += [{"kind": "mention", "id": i, "name": n, "type": t, "chunk_id": c} for i, n, t, c in MENTIONS]
    recs += [{"kind": "triple", "subject": s, "predicate": p, "object": o}
             for s, p, o in TRIPLES + [("sh3", "IS", "sh1")]]
    recs += [{"kind": "triple", "subject": "ghost", "predicate": "HAUNTS", "object": "sh1"}]  # no mention line
    return write_jsonl(tmp_path / "r.jsonl", recs)


def test_report_before_resolution(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    normalize(db)
    r = report(db)
    assert r.counts["mentions"] == 19 and r.counts["inferred_mentions"] == 1 and r.counts["triples"] == 6
    # components: {sh1 sh2 sh3 bs1 ghost}, {my1 pm1}, {sh5 bs2} and the 10 other mentions alone
    assert (r.before.components, r.before.largest, r.before.relations) == (13, 5, 6)
    assert r.before.size_distribution["1"] == 10 and r.before.size_distribution["5-8"] == 1
    assert r.after.components == r.before.components and r.entity_reduction == 0.0
    assert any(m["key"] == "baker street" and sorted(m["types"]) == ["GEO", "ORGANIZATION"]
               for m in r.multi_type_names)
    assert r.runs == [] and r.self_loops == [] and r.score_histogram == {}


def test_report_after_resolution(db, tmp_path):
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    stats = resolve(db, RULES)  # the report is under test: a resolution whose merges are known
    r = report(db)
    assert r.counts["entities"] == stats.entities_after and r.after.nodes == stats.entities_after
    assert r.entity_reduction == pytest.approx(1 - stats.entities_after / 19, abs=1e-4)
    assert r.after.components < r.before.components
    # Baker Street typed two ways: one entity now, or still listed while its pair waits in review
    assert all(m["key"] == "baker street" for m in r.multi_type_names)
    assert [(x["name"], x["predicate"]) for x in r.self_loops] == [("Sherlock Holmes", "IS")]
    assert any(w["name"] == "Sherlock Holmes" and w["moved"] == 4 for w in r.weak_groups)
    assert r.runs[0]["id"] == stats.run_id and r.runs[0]["entities_after"] == stats.entities_after
    # each pair once, in the band of its last pass's verdict (the rules engine writes an edge every pass)
    last = db.run("MATCH (a)-[c:CANDIDATE]->(b) WHERE c.run_id = $id OR c.run_id STARTS WITH $id + '.' "
                  "WITH a, b, c ORDER BY coalesce(toInteger(split(c.run_id, '.')[1]), 1) DESC "
                  "WITH a, b, head(collect(c.band)) AS band RETURN band, count(*) AS n", id=stats.run_id)
    assert r.score_run == stats.run_id and stats.passes > 1
    assert {b: sum(v) for b, v in r.score_histogram.items()} == {x["band"]: x["n"] for x in last}
    assert sum(sum(v) for v in r.score_histogram.values()) < stats.candidate_pairs  # pairs re-scored by pass 2


def test_report_shows_the_model_a_default_run_scored_with(db, tmp_path, neo4j_env):
    """The latest default run's model: its expected precision and recall (those the run reported), and
    in HTML one weight bar per comparison level, as the stored model has them."""
    from click.testing import CliRunner

    from kgres.cli import main
    from kgres.report.html import render
    from kgres.resolve.score.store import get, info

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    stats = resolve(db)
    r = report(db)
    assert r.model is not None and r.model.id == stats.model_id
    assert r.runs[0]["expected_precision"] == stats.expected_precision
    assert r.runs[0]["expected_recall"] == stats.expected_recall
    assert r.runs[0]["auto_threshold"] == stats.auto_threshold
    levels = sum(len(c.levels) for c in info(get(db, stats.model_id)).comparisons)
    page = render(r)
    assert page.count("<rect") >= levels and "plot-weights" in page
    assert all(f"{c.name}: {lv.level}" in page.replace("&gt;", ">").replace("&lt;", "<")
               for c in r.model.comparisons for lv in c.levels)
    out = CliRunner().invoke(main, ["report"], catch_exceptions=False)
    assert out.exit_code == 0 and f"match model {stats.model_id}" in out.output
    assert "resolution runs" in out.output


def test_html_report_renders_in_headless_chromium(db, tmp_path):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        pytest.skip("Debian's chromium is not installed ('make test' installs it)")
    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db)
    result = clusters.clusters(db, gold.load_gold(gold_file(tmp_path)), sweep=True)
    page = tmp_path / "report.html"
    page.write_text(render(report(db), result.sweep, result.usable_window), encoding="utf-8")
    assert "http://" not in page.read_text() and "https://" not in page.read_text()   # self-contained
    dom = subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=120, check=True).stdout
    for plot in ("plot-components", "plot-scores", "plot-sweep", "plot-weights"):
        assert f'id="{plot}"' in dom, plot
    assert dom.count("<rect") >= 5 and dom.count("<polyline") == 2
    shot = tmp_path / "report.png"
    subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", f"--screenshot={shot}",
                    "--window-size=900,1400", page.as_uri()], capture_output=True, timeout=120, check=True)
    assert shot.stat().st_size > 10_000                                 # something was painted


def test_cli_report(db, neo4j_env, tmp_path):
    from click.testing import CliRunner

    from kgres.cli import main

    ingest.ingest(db, "jsonl", fixture(tmp_path))
    resolve(db, RULES)
    page = tmp_path / "r.html"
    out = CliRunner().invoke(main, ["report", "--json", "--html", str(page), "--gold", str(gold_file(tmp_path))],
                             catch_exceptions=False)
    assert out.exit_code == 0
    doc = json.loads(out.stdout)
    assert doc["after"]["layer"] == "entities" and "plot-sweep" in page.read_text()
    table = CliRunner().invoke(main, ["report"], catch_exceptions=False)
    assert table.exit_code == 0 and "largest share" in table.output and "self-loops" in table.output
