"""``kgres init | status | reset | ingest``: the schema, the state of the graph, importing data."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from kgres import ingest as ingest_stage
from kgres import schema
from kgres.cli import App, json_option, main, writes
from kgres.cli.progress import StageProgress
from kgres.cli.resolve import print_resolve, resolve_config
from kgres.resolve import preload, resolve


@main.command("init")
@json_option
@click.pass_obj
def init_cmd(app: App, as_json: bool) -> None:
    """Create kgres's constraints and indexes (idempotent).

    Vector index sizes come from settings (schema.embedding_dimensions).
    """
    result = schema.init(app.db, app.settings.schema_)
    if as_json:
        app.emit_json(result)
        return
    app.out.print(f"schema ready: {result.statements} constraints and indexes")
    for w in result.warnings:
        app.err.print(f"[yellow]warning:[/] {w}")


@main.command("status")
@json_option
@click.pass_obj
def status_cmd(app: App, as_json: bool) -> None:
    """Versions of Neo4j, APOC, GDS and the kgres plugin, the size of the graph, and any
    import that did not finish (with the commands that finish or remove it).

    \b
    Example:
        kgres status --json | jq .counts.entities
    """
    report = schema.status(app.db)
    if as_json:
        app.emit_json(report)
        return
    v = report.versions
    t = Table(title=f"{report.uri} ({'managed' if report.managed else 'external'}), database {report.database}")
    t.add_column("")
    t.add_column("", justify="right")
    for name, value in [("Neo4j", f"{v.neo4j} {v.edition}"), ("APOC", v.apoc), ("GDS", v.gds),
                        ("kgres plugin", v.kgres_plugin), ("kgres", v.kgres)]:
        t.add_row(name, value or "[red]not installed[/]")
    t.add_section()
    for name, value in report.counts.model_dump().items():
        t.add_row(name.replace("_", " "), f"{value:,}")
    app.out.print(t)
    for line in report.unfinished_imports:
        app.err.print(f"note: {line}")


@main.command("reset")
@click.option("--yes", is_flag=True, help="Confirm: delete every node and relationship.")
@click.pass_obj
def reset_cmd(app: App, yes: bool) -> None:
    """Empty the database (data and GDS projections; the schema stays)."""
    if not yes:
        raise click.UsageError("reset deletes all data in the database; add --yes to confirm")
    with app.writing("reset"):
        schema.reset(app.db)
    app.out.print(f"database emptied at {app.db.target.uri}")


@main.command("ingest")
@click.argument("fmt", metavar="FORMAT", type=click.Choice(sorted(ingest_stage.READERS)))
@click.argument("path", type=click.Path(path_type=Path))
@click.option("--source", help="Namespace for this input's ids (default: the format name).")
@click.option("--batch-size", type=click.IntRange(1, 100_000), help="Rows per transaction (default from settings).")
@click.option("--resolve", "then_resolve", is_flag=True,
              help="Then resolve the new mentions (as 'kgres resolve': incremental on a resolved graph; an "
                   "input that brought none resolves nothing), holding the writer lock for both.")
@json_option
@click.pass_obj
@writes("ingest")
def ingest_cmd(app: App, fmt: str, path: Path, source: str | None, batch_size: int | None, then_resolve: bool,
               as_json: bool) -> None:
    """Import an LLM-built graph: one Mention per extracted entity, one Entity per Mention.

    \b
    FORMAT is one of:
      jsonl     kgres interchange format (see README)
      graphrag  a GraphRAG output folder (entities/relationships/text_units/documents.parquet)
      graphml   nano-graphrag / LightRAG graph_chunk_entity_relation.graphml (+ chunk store)
      kggen     KGGen JSON (entities, relations)

    The whole input is checked before anything is written. Re-ingesting the
    same input changes nothing. An import that fails midway removes what it
    wrote; one killed midway finishes when rerun, or is removed by
    'kgres rollback RUN_ID' (the run id is in the table's title).

    \b
    Example:
        kgres ingest graphrag ./ragtest/output --source carol
        kgres ingest jsonl today.jsonl --resolve --json | jq .resolve.merged_entities
    """
    cfg = resolve_config(app) if then_resolve else None  # bad settings fail before anything is written
    schema.init(app.db, app.settings.schema_)
    expected: dict[str, int] = {}
    under_way: list[str] = []  # the kinds written so far, the one being written last

    def write(kind: str) -> None:
        under_way.append(kind)
        progress.stage(f"ingest: {kind}")
        progress.expect(expected.get(kind), kind)

    def on_read(src: ingest_stage.Source) -> None:  # the input is valid; nothing is written yet
        if cfg is not None:
            preload(cfg)  # the embedding model loads while the import writes (a cold load is about 8 s)
        expected.update(src.counts)
        first = next((k for k in ("documents", "chunks", "mentions", "triples") if src.counts.get(k)), None)
        if first is not None:
            write(first)
        else:
            progress.end()

    def on_progress(kind: str, n: int) -> None:  # kinds are written one after another, in that order
        if under_way[-1:] != [kind]:
            write(kind)
        progress.advance(n)

    resolved = None
    with StageProgress(app.err) as progress:
        progress.stage("ingest: read and check")
        stats = ingest_stage.ingest(app.db, fmt, path, source=source,
                                    batch_size=batch_size or app.settings.ingest.batch_size, on_read=on_read,
                                    on_progress=on_progress)
        progress.end()
        if cfg is not None:
            resolved = resolve(app.db, cfg, on_step=progress, fastrp_dimensions=app.settings.schema_.fastrp_dimensions,
                               after_import=True)
    if as_json:
        app.emit_json({"ingest": stats.model_dump(), "resolve": resolved.model_dump()} if resolved else stats)
        return
    t = Table(title=f"ingested {stats.format} from {stats.path} as '{stats.source}' in {stats.seconds:.1f}s "
                    f"(run {stats.run_id})")
    t.add_column("read")
    t.add_column("count", justify="right")
    for k in ("documents", "chunks", "mentions", "inferred_mentions", "triples"):
        t.add_row(k.replace("_", " "), f"{getattr(stats, k):,}")
    t.add_section()
    t.add_row("nodes created", f"{stats.nodes_created:,}")
    t.add_row("relationships created", f"{stats.relationships_created:,}")
    app.out.print(t)
    for note in stats.notes:
        app.err.print(f"note: {note}")
    if resolved is not None:
        print_resolve(app, resolved)
