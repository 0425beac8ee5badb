"""``kgres model show | train | export | import``: the match model the default strategy weighs evidence with."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.table import Table

from kgres.cli import App, json_option, main, writes
from kgres.cli.progress import StageProgress
from kgres.errors import ConfigError, InputError


@main.group("model")
def model_group() -> None:
    """Inspect, train, export and import the match model (Fellegi-Sunter m/u per comparison level)."""


@model_group.command("show")
@click.argument("model_id", required=False)
@json_option
@click.pass_obj
def show_cmd(app: App, model_id: str | None, as_json: bool) -> None:
    """Show a model (the newest by default): each comparison level's m, u and weight.

    \b
    A level's weight is log2(m / u): what it adds to a pair's match weight. m is the
    share of matching pairs at the level, u of non-matching ones (u_random: of random
    pairs of the graph, what chance agreement looks like).

    \b
    Example:
        kgres model show --json | jq '.comparisons[] | select(.name == "name")'
    """
    from kgres.resolve.score import store

    info = store.info(store.get(app.db, model_id))
    if as_json:
        app.emit_json(info)
        return
    pinned = ", pinned" if info.pinned else ""
    app.out.print(f"[bold]{info.id}[/] ({info.version}{pinned}), trained {info.trained_at} by {info.run_id or '-'} "
                  f"on {info.pairs:,} pairs and {info.labels} decision(s); prior {info.prior:.3f} "
                  f"(log2 odds {info.prior_weight:+.2f}), u from {info.u_source}")
    if info.auto_threshold is not None:
        app.out.print(f"auto band from probability {info.auto_threshold:.3f}, review from "
                      f"{info.review_threshold:.3f}; the model expects precision {info.expected_precision:.3f} "
                      f"and recall {info.expected_recall:.3f} in its auto band")
    t = Table()
    for col in ("comparison", "level", "m", "u", "u random", "weight"):
        t.add_column(col, justify="left" if col in ("comparison", "level") else "right")
    for c in info.comparisons:
        for i, lv in enumerate(c.levels):
            t.add_row(c.name if i == 0 else "", lv.level, f"{lv.m:.4f}", f"{lv.u:.4f}", f"{lv.u_random:.4f}",
                      f"{lv.weight:+.2f}")
    app.out.print(t)


@model_group.command("train")
@json_option
@click.pass_obj
@writes("model train")
def train_cmd(app: App, as_json: bool) -> None:
    """Train a model on the graph as it is, without merging anything, and pin it.

    \b
    Later resolves use a pinned model that weighs the graph's comparisons instead
    of training their own ([resolve.model] train = "auto"). Decisions made with
    'kgres decide' or the judge are labels: train again to learn from them.

    \b
    Example:
        kgres model train && kgres resolve
    """
    from kgres.resolve import ResolveConfig
    from kgres.resolve.score import store

    try:
        cfg = ResolveConfig.model_validate(app.settings.resolve)
    except ValueError as e:
        raise ConfigError(f"invalid [resolve] settings: {e}") from e
    with StageProgress(app.err) as progress:
        info = store.train(app.db, cfg, on_step=progress, fastrp_dimensions=app.settings.schema_.fastrp_dimensions)
    if as_json:
        app.emit_json(info)
        return
    app.out.print(f"trained and pinned {info.id} on {info.pairs:,} pairs and {info.labels} decision(s)")


@model_group.command("export")
@click.argument("model_id", required=False)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write to this file instead of stdout.")
@click.pass_obj
def export_cmd(app: App, model_id: str | None, output: Path | None) -> None:
    """Write a model (the newest by default) as JSON, to keep or to import elsewhere.

    \b
    Example:
        kgres model export -o model.json
    """
    from kgres.resolve.score import store

    text = store.export(app.db, model_id)
    if output is None:
        click.echo(text)
    else:
        output.write_text(text, encoding="utf-8")
        app.err.print(f"wrote {output}")


@model_group.command("import")
@click.argument("path", type=click.Path(dir_okay=False, allow_dash=True, path_type=Path))
@json_option
@click.pass_obj
@writes("model import")
def import_cmd(app: App, path: Path, as_json: bool) -> None:
    """Store a model exported by 'kgres model export' and pin it ('-' reads stdin).

    \b
    Example:
        kgres model import model.json
    """
    from kgres.resolve.score import store

    try:
        text = sys.stdin.read() if str(path) == "-" else path.read_text(encoding="utf-8")
    except OSError as e:
        raise InputError(f"cannot read model file: {e.strerror}", path=path) from e
    model_id = store.import_model(app.db, text, source=str(path))
    if as_json:
        app.emit_json({"id": model_id, "pinned": True})
    else:
        app.out.print(f"imported and pinned {model_id}")
