"""``kgres eval clusters | paths``: measure the resolution against gold and question chains."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click
from rich.table import Table

from kgres.cli import App, json_option, main

if TYPE_CHECKING:
    from kgres.report.diagnostics import Report


@main.group("eval")
def eval_group() -> None:
    """Measure resolution quality against gold clusters, gold pairs or question chains."""


@eval_group.command("clusters")
@click.option("--gold", "gold_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), required=True,
              help='JSONL {"mention_id", "cluster"} lines, or CSV id_a,id_b,label pairs (.csv).')
@click.option("--same-as", is_flag=True, help="Count entities joined by SAME_AS links as one cluster.")
@click.option("--sweep", is_flag=True, help="Re-cluster a run's stored pairs at thresholds 0.60..1.00.")
@click.option("--run", "run_id", default=None, help="The run to sweep. [default: the latest default run]")
@click.option("--examples", type=click.IntRange(0, 1000), default=5, show_default=True)
@json_option
@click.pass_obj
def eval_clusters_cmd(app: App, gold_path: Path, same_as: bool, sweep: bool, run_id: str | None, examples: int,
                      as_json: bool) -> None:
    """Pairwise, B-cubed and CESI macro/micro scores of the current resolution against gold.

    \b
    Mention ids are the ids the input gave. Also shows false and missed merges
    with examples, slices by type and by name frequency, and with --sweep the
    precision/recall curve and the usable window (precision >= 0.98, recall
    within 2 points of its best).

    \b
    Example:
        kgres eval clusters --gold gold.jsonl --sweep
    """
    from kgres.evaluate import clusters, gold

    result = clusters.clusters(app.db, gold.load_gold(gold_path), same_as=same_as, examples=examples, sweep=sweep,
                         run_id=run_id)
    if as_json:
        app.emit_json(result)
        return
    t = Table(title=f"{result.items:,} mentions with gold: {result.gold_clusters:,} gold clusters, "
                    f"{result.predicted_clusters:,} predicted")
    for col in ("metric", "precision", "recall", "F1"):
        t.add_column(col)
    t.add_row("pairwise", *(f"{result.pairwise[k]:.3f}" for k in ("p", "r", "f1")))
    t.add_row("B-cubed", *(f"{result.bcubed[k]:.3f}" for k in ("p", "r", "f1")))
    for kind in ("macro", "micro"):
        t.add_row(f"CESI {kind}", *(f"{result.cesi[f'{kind}_{k}']:.3f}" for k in ("p", "r", "f1")))
    app.out.print(t)
    app.out.print(f"false-merge pairs {int(result.pairwise['false_merges']):,}, "
                  f"missed pairs {int(result.pairwise['missed']):,}")
    for title, rows in (("false merges", result.false_merge_examples), ("missed merges", result.missed_merge_examples)):
        for ex in rows:
            app.out.print(f"  {title}: " + " | ".join(", ".join(names) for names in ex.names))
    s = Table(title="slices (pairwise)")
    for col in ("slice", "mentions", "P", "R", "F1"):
        s.add_column(col)
    for label, slices in (("type", result.by_type), ("name frequency", result.by_name_frequency)):
        for name, sl in slices.items():
            s.add_row(f"{label} {name}", f"{sl.items:,}", f"{sl.pair_p:.3f}", f"{sl.pair_r:.3f}", f"{sl.pair_f1:.3f}")
    app.out.print(s)
    if result.sweep:
        w = Table(title=f"threshold sweep of {result.sweep_run}")
        for col in ("threshold", "P", "R", "F1"):
            w.add_column(col)
        for p in result.sweep:
            w.add_row(f"{p.threshold:.2f}", f"{p.p:.3f}", f"{p.r:.3f}", f"{p.f1:.3f}")
        app.out.print(w)
        window = result.usable_window
        app.out.print(f"usable window: {window[0]:.2f}..{window[1]:.2f}" if window else
                      "usable window: none (no threshold keeps precision >= 0.98 near the best recall)")


@eval_group.command("paths")
@click.option("--questions", "questions_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help='JSONL lines {"id"?, "question"?, "chain": [name, name, ...]}.')
@json_option
@click.pass_obj
def eval_paths_cmd(app: App, questions_path: Path, as_json: bool) -> None:
    """Share of question chains (question -> bridge -> answer) that connect, before and after resolution.

    \b
    Before: the mention layer (raw triples). After: the entity layer. Each consecutive
    pair of names must be directly related, through the same node for each name.

    \b
    Example:
        kgres eval paths --questions chains.jsonl --json
    """
    from kgres.evaluate import paths

    result = paths.paths(app.db, paths.load_questions(questions_path))
    if as_json:
        app.emit_json(result)
        return
    t = Table(title=f"{result.questions} question chain(s)")
    for col in ("id", "chain", "before", "after"):
        t.add_column(col)
    for r in result.results:
        t.add_row(r["id"], " -> ".join(r["chain"]), "yes" if r["before"] else "no", "yes" if r["after"] else "no")
    app.out.print(t)
    app.out.print(f"chains with a path: before {result.before:.0%}, after {result.after:.0%}")


@main.command("report")
@click.option("--html", "html_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the report as one self-contained HTML file with plots.")
@click.option("--gold", "gold_path", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Gold clusters or pairs: adds the threshold sweep to the HTML report.")
@click.option("--limit", type=click.IntRange(1, 1000), default=20, show_default=True, help="Rows per list.")
@json_option
@click.pass_obj
def report_cmd(app: App, html_path: Path | None, gold_path: Path | None, limit: int, as_json: bool) -> None:
    """Diagnostics: fragmentation before and after, what runs did, and what may be wrong.

    \b
    Connected components of the mention layer and the entity layer (GDS WCC), entity and
    relation reduction, resolution runs, near-duplicates still separate, one name with
    several types, likely variant spellings, over-merge suspects (self-loops made by
    merges, the weakest merge decisions) and the review backlog.

    \b
    Example:
        kgres report --html report.html --gold gold.jsonl
    """
    from kgres.evaluate import clusters, gold
    from kgres.report import report

    r = report(app.db, limit=limit)
    if html_path is not None:
        from kgres.report.html import render

        sweep = window = None
        if gold_path is not None:
            result = clusters.clusters(app.db, gold.load_gold(gold_path), examples=0, sweep=True)
            sweep, window = result.sweep, result.usable_window
        html_path.write_text(render(r, sweep, window), encoding="utf-8")
        app.err.print(f"wrote {html_path}")
    if as_json:
        app.emit_json(r)
        return
    t = Table(title="fragmentation: mention layer (before) and entity layer (after)")
    for col in ("layer", "nodes", "relations", "components", "largest", "largest share"):
        t.add_column(col)
    for c in (r.before, r.after):
        t.add_row(c.layer, f"{c.nodes:,}", f"{c.relations:,}", f"{c.components:,}", f"{c.largest:,}",
                  f"{c.largest_share:.1%}")
    app.out.print(t)
    c = r.counts
    app.out.print(f"entities {c['entities']:,} from {c['mentions']:,} mentions ({r.entity_reduction:.1%} fewer); "
                  f"relations {c['relations']:,} from {c['triples']:,} triples ({r.relation_reduction:.1%} fewer); "
                  f"{c['inferred_mentions']:,} inferred mentions; review backlog {c['review_pairs']:,}")
    _print_runs(app, r)
    for title, rows, cols in (
            ("near-duplicates still separate", r.near_duplicates, ("a", "b", "score")),
            ("one name, several types", r.multi_type_names, ("key", "types", "entities")),
            ("over-merge suspects: self-loops", r.self_loops, ("name", "predicate", "triples")),
            ("over-merge suspects: weakest merges", r.weak_groups, ("name", "weakest", "moved"))):
        if rows:
            tab = Table(title=title)
            for col in cols:
                tab.add_column(col)
            for row in rows[:10]:
                tab.add_row(*(", ".join(map(str, v)) if isinstance(v, list) else
                              f"{v:.3f}" if isinstance(v, float) else str(v) for v in (row.get(k) for k in cols)))
            app.out.print(tab)


def _print_runs(app: App, r: Report) -> None:
    """Resolution runs, and the match model the latest one scored with and what it expects of itself."""
    if r.runs:
        t = Table(title="resolution runs, newest first")
        for col in ("run", "strategy", "status", "entities", "merged", "expected P / R"):
            t.add_column(col)
        for run in r.runs[:10]:
            before, after = run.get("entities_before"), run.get("entities_after")
            p, rec = run.get("expected_precision"), run.get("expected_recall")
            t.add_row(run["id"], str(run["strategy"]), str(run["status"]),
                      f"{before:,} -> {after:,}" if before is not None and after is not None else "",
                      f"{run.get('merged_entities', 0):,}", f"{p:.3f} / {rec:.3f}" if p is not None else "")
        app.out.print(t)
    m = r.model
    if m is not None:
        app.out.print(f"match model {m.id} ({'pinned, ' if m.pinned else ''}trained on {m.pairs:,} candidate pairs"
                      f" and {m.labels} decided ones): auto band from p >= {m.auto_threshold}, expected precision "
                      f"{m.expected_precision}, expected recall {m.expected_recall} (kgres model show {m.id})")


@eval_group.command("answers")
@click.option("--questions", "questions_path", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              required=True, help='JSONL lines {"id"?, "question"} (the eval paths file works too).')
@click.option("--mode", type=click.Choice(["local", "ppr", "community"]), default=None,
              help="Retrieval mode on the resolved graph. [default: local]")
@json_option
@click.pass_obj
def eval_answers_cmd(app: App, questions_path: Path, mode: str | None, as_json: bool) -> None:
    """Answers from the resolved graph against answers from the unresolved mention layer.

    \b
    The LLM answers each question from both contexts; a pairwise LLM judge compares
    the answers on comprehensiveness, diversity, empowerment and overall, in both
    orders (position bias cancels). Prints the resolved graph's win rate per criterion.
    Needs an LLM (KGRES_LLM_MODEL); without one the evaluation is skipped.

    \b
    Example:
        KGRES_LLM_MODEL=gpt-4o-mini kgres eval answers --questions questions.jsonl
    """
    from kgres.cli.llm import _llm_or_skip
    from kgres.cli.retrieve import _retriever
    from kgres.evaluate.answers import CRITERIA, evaluate, load_questions

    questions = load_questions(questions_path)
    llm = _llm_or_skip(app, "eval answers", as_json)
    if llm is None:
        return
    retriever = _retriever(app)
    result = evaluate(retriever, llm, questions, **({"mode": mode} if mode else {}))
    if as_json:
        app.emit_json(result)
        return
    t = Table("criterion", "resolved graph wins", title=f"{result.questions} questions, {result.comparisons} "
              f"comparisons (both orders), {result.failed} failed")
    for c in CRITERIA:
        t.add_row(c, f"{result.win_rate[c]:.1%}")
    app.out.print(t)
    if result.stopped_by_budget:
        app.err.print("note: the LLM budget ran out before every question was compared")


@main.command("synth")
@click.argument("out", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--gold", "gold_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Where to write the gold clusters. [default: OUT with .gold.jsonl]")
@click.option("--mentions", type=click.IntRange(1, 50_000_000), default=10_000, show_default=True)
@click.option("--seed", type=int, default=11, show_default=True)
@json_option
@click.pass_obj
def synth_cmd(app: App, out: Path, gold_path: Path | None, mentions: int, seed: int, as_json: bool) -> None:
    """Write a noisy LLM-style graph with ground truth (kgres JSONL + gold), seeded.

    \b
    Variants (honorifics, initials, nicknames, typos, transliterations, acronyms,
    plurals, possessives, types that disagree) and hard negatives (relatives, numbered
    products, neighbouring places, homonyms only context separates, chain traps).
    The same seed gives the same bytes.

    \b
    Example:
        kgres synth graph.jsonl --mentions 100000 && kgres ingest jsonl graph.jsonl
        kgres resolve && kgres eval clusters --gold graph.gold.jsonl
    """
    from kgres.evaluate.synth import generate

    gold_path = gold_path or out.with_name(out.stem + ".gold.jsonl")
    stats = generate(out, gold_path, mentions, seed=seed)
    if as_json:
        app.emit_json({**stats.model_dump(), "path": str(out), "gold": str(gold_path)})
        return
    app.out.print(f"wrote {out} ({stats.mentions:,} mentions of {stats.entities:,} entities in {stats.topics:,} "
                  f"topics, {stats.triples:,} triples, {stats.homonym_pairs} homonym pairs, "
                  f"{stats.missing_endpoints} missing endpoints) and {gold_path}")
