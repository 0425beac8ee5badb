"""``kgres demo``: the README's first command, end to end on the managed server."""

from __future__ import annotations

import os

import click
from rich.table import Table

from kgres import ingest as ingest_stage
from kgres import schema
from kgres.assets import asset_dir
from kgres.curate.review import review
from kgres.cli import App, json_option, main
from kgres.cli.neo4j import ensure_running
from kgres.cli.progress import StageProgress
from kgres.db import Database, resolve_target
from kgres.report import components
from kgres.resolve import ResolveConfig, resolve


@main.command("demo")
@json_option
@click.pass_obj
def demo_cmd(app: App, as_json: bool) -> None:
    """Start the managed Neo4j, load the bundled sample graph, resolve it, show before and after.

    \b
    The sample (sample/holmes.jsonl) is a small detective-story graph written
    for kgres, full of the variants LLM extractors produce: "Sherlock Holmes",
    "Holmes", "Mr. Holmes", a brother "Mycroft Holmes", "Baker Street" typed
    two ways, a relation whose endpoint was never extracted.
    The demo empties the managed server's database first, and ignores
    NEO4J_URI: it always uses the managed server.
    """
    ensure_running(app)
    if os.environ.get("NEO4J_URI"):
        app.err.print("note: NEO4J_URI is set; the demo still uses the managed local server")
    with Database(resolve_target(app.settings, managed_only=True)) as db, app.writing("demo", db):
        schema.reset(db)
        schema.init(db, app.settings.schema_)
        stats = ingest_stage.ingest(db, "jsonl", asset_dir("sample") / "holmes.jsonl", source="sample")
        before = components(db, "entities")
        mention_layer = components(db, "mentions")
        with StageProgress(app.err) as progress:
            run = resolve(db, ResolveConfig.model_validate(app.settings.resolve), on_step=progress)
        after = components(db, "entities")
        merges = db.read("report_merged")
        waiting = review(db, limit=10)
        report = schema.status(db)
    if as_json:
        app.emit_json({"ingest": stats.model_dump(), "resolve": run.model_dump(),
                       "before": before.model_dump(), "mention_layer": mention_layer.model_dump(),
                       "after": after.model_dump(), "merges": merges,
                       "review": [p.model_dump() for p in waiting], "status": report.model_dump()})
        return
    v = report.versions
    app.out.print(f"[bold]Neo4j {v.neo4j}[/] with APOC {v.apoc}, GDS {v.gds}, kgres plugin {v.kgres_plugin} "
                  f"at {report.uri}")
    app.out.print(f"resolved in {run.passes} pass(es): {run.groups} groups merged, "
                  f"{run.merged_entities} entities absorbed")
    app.out.print(f"ingested the sample: {stats.mentions} mentions ({stats.inferred_mentions} inferred from a "
                  f"relation), {stats.triples} triples, {stats.chunks} chunks")
    t = Table(title=f"resolution run {run.run_id}")
    t.add_column("")
    t.add_column("before", justify="right")
    t.add_column("after", justify="right")
    t.add_row("entities", str(before.nodes), str(after.nodes))
    t.add_row("relations", str(before.relations), str(after.relations))
    t.add_row("connected components", str(before.components), str(after.components))
    t.add_row("largest component share", f"{before.largest_share:.0%}", f"{after.largest_share:.0%}")
    app.out.print(t)
    app.out.print("merged:")
    for m in merges:
        types = sorted({t for t in m["types"] if t})
        app.out.print(f"  {m['entity']}: {m['mentions']} mentions as {', '.join(repr(a) for a in m['aliases'])}"
                      + (f" typed {' and '.join(types)}" if len(types) > 1 else ""))
    if waiting:
        app.out.print("waiting in review (kgres review, then kgres decide or kgres judge):")
        for p in waiting:
            app.out.print(f"  {p.a_name} / {p.b_name}: {p.score:.2f} ({p.signals.get('name_rule', '')})")
    app.out.print("try: kgres explain Holmes | kgres explain Sherlock --pair 'Sherlock Holmes' | "
                  "kgres rollback " + run.run_id)
