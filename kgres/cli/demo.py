"""``kgres demo``: the README's first command, end to end on the managed server."""

from __future__ import annotations

import os

import click

from kgres import ingest as ingest_stage
from kgres import schema
from kgres.assets import asset_dir
from kgres.cli import App, json_option, main
from kgres.cli.neo4j import ensure_running
from kgres.db import Database, resolve_target


@main.command("demo")
@json_option
@click.pass_obj
def demo_cmd(app: App, as_json: bool) -> None:
    """Install and start the managed Neo4j, load the bundled sample graph, show its state.

    \b
    The sample (sample/holmes.jsonl) is a small detective-story graph written
    for kgres, full of the variants LLM extractors produce: "Sherlock Holmes",
    "Holmes", "Mr. Holmes", a brother "Mycroft Holmes", "Baker Street" typed
    two ways, a relation whose endpoint was never extracted.
    Ignores NEO4J_URI: the demo always uses the managed server.
    """
    ensure_running(app)
    if os.environ.get("NEO4J_URI"):
        app.err.print("note: NEO4J_URI is set; the demo still uses the managed local server")
    with Database(resolve_target(app.settings, managed_only=True)) as db:
        schema.init(db, app.settings.schema_)
        stats = ingest_stage.ingest(db, "jsonl", asset_dir("sample") / "holmes.jsonl", source="sample")
        report = schema.status(db)
    if as_json:
        app.emit_json({"ingest": stats.model_dump(), "status": report.model_dump()})
        return
    v = report.versions
    app.out.print(f"[bold]Neo4j {v.neo4j}[/] with APOC {v.apoc}, GDS {v.gds}, kgres plugin {v.kgres_plugin} "
                  f"at {report.uri}")
    app.out.print(f"sample: {stats.mentions} mentions ({stats.inferred_mentions} inferred from a relation), "
                  f"{stats.triples} triples, {stats.chunks} chunks; created {stats.nodes_created} nodes")
    c = report.counts
    app.out.print(f"graph now: {c.entities} entities, {c.relations} relations, {c.mentions} mentions")
    app.out.print("next: kgres status, or open the graph in Cypher: MATCH (m:Mention)-[:REFERS_TO]->(e) RETURN *")
