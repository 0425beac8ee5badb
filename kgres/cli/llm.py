"""``kgres judge | reflect | summarize``: the LLM stages (any OpenAI-compatible endpoint)."""

from __future__ import annotations

import click

from kgres.cli import App, json_option, main, writes
from kgres.cli.progress import StageProgress
from kgres.errors import ConfigError


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
@writes("judge")
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
    from kgres.llm.judge import judge, judge_mentions

    llm = _llm_or_skip(app, "judge", as_json)
    if llm is None:
        return
    if mention_level:
        with StageProgress(app.err) as progress:
            progress(f"judging mentions with {llm.model}")
            m = judge_mentions(app.db, llm, limit=limit, min_confidence=min_confidence, on_step=progress)
        if as_json:
            app.emit_json(m)
            return
        app.out.print(f"{m.mentions} mention(s): {m.moved} moved alone, {m.kept} kept, {m.failed} failed; "
                      f"{m.usage.calls} call(s), {m.usage.cached} cached")
        return
    with StageProgress(app.err) as progress:
        progress(f"judging with {llm.model}")
        stats = judge(app.db, llm, limit=limit, min_confidence=min_confidence, on_step=progress)
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
@writes("reflect")
def reflect_cmd(app: App, threshold: float, all_triples: bool, as_json: bool) -> None:
    """Let an LLM score each triple 0..1; implausible triples are marked filtered, never deleted.

    \b
    Filtered triples leave RELATED edges, GDS projections and retrieval; the score stays on
    the raw triple through merges, splits and rollbacks. Needs an LLM (see 'kgres judge').

    \b
    Example:
        kgres reflect --threshold 0.2 --json
    """
    from kgres.llm.reflect import reflect

    llm = _llm_or_skip(app, "reflect", as_json)
    if llm is None:
        return
    with StageProgress(app.err) as progress:
        progress(f"reflecting with {llm.model}")
        stats = reflect(app.db, llm, threshold=threshold, all_triples=all_triples, on_step=progress)
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
@writes("summarize")
def summarize_cmd(app: App, budget_tokens: int, as_json: bool) -> None:
    """Summarise long merged descriptions into one paragraph (Entity.summary); mentions keep theirs.

    \b
    Example:
        kgres summarize --budget-tokens 4000
    """
    from kgres.llm.summarize import summarize

    llm = _llm_or_skip(app, "summarize", as_json)
    if llm is None:
        return
    with StageProgress(app.err) as progress:
        progress(f"summarising with {llm.model}")
        stats = summarize(app.db, llm, budget_tokens=budget_tokens, on_step=progress)
    if as_json:
        app.emit_json(stats)
        return
    app.out.print(f"{stats.summarized:,} of {stats.entities:,} long entit(ies) summarised, {stats.failed} failed; "
                  f"{stats.usage.calls} call(s), {stats.usage.cached} cached")
