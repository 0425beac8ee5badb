"""``kgres review | decide | split | rebuild | explain | export clusters``: what people do to a resolution."""

from __future__ import annotations

import json

import click
from rich.table import Table

from kgres.cli import App, json_option, main, writes
from kgres.curate import explain as explain_stage


@main.command("explain")
@click.argument("name_or_id")
@click.option("--pair", "other", default=None, metavar="NAME_OR_ID",
              help="Explain how this entity and another compare: the match model's waterfall.")
@json_option
@click.pass_obj
def explain_cmd(app: App, name_or_id: str, other: str | None, as_json: bool) -> None:
    """Show an entity's alias trail: each mention, its source, and the decision that put it there.

    \b
    With --pair, the waterfall of two entities instead: the prior, then each
    comparison's level and Bayes factor (log2: +1 doubles the odds that the two
    are one thing, -1 halves them), the running match probability, and any
    cannot-link that no evidence overrides. A pair a run scored is shown as that
    run's model scored it; another pair as the graph is now.

    \b
    Example:
        kgres explain "Sherlock Holmes"
        kgres explain "Sherlock Holmes" --pair "Mr. Holmes" --json
    """
    if other is not None:
        _explain_pair(app, name_or_id, other, as_json)
        return
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
        why = p.get("cannot_link") or ""
        app.out.print(f"kept apart from {p['other_name']} ({p['other_id']}): {p['band']} {p['score']} {why}")
    for r in ex.rejected:
        app.out.print(f"NOT_SAME_AS {r['other_name']} ({r['other_id']}) by {r['decided_by']}: {r['reason']}")


def _explain_pair(app: App, a: str, b: str, as_json: bool) -> None:
    ex = explain_stage.explain_pair(app.db, a, b)
    if as_json:
        app.emit_json(ex)
        return
    scored = {"stored": f"as run {ex.run_id} scored it",
              "recomputed": f"rejected by run {ex.run_id}, which keeps no evidence for a reject: its model "
                            "compares the pair again as the graph is now"}.get(ex.source, "as the graph is now")
    app.out.print(f"[bold]{ex.a['name']}[/] ({ex.a['id']}) and [bold]{ex.b['name']}[/] ({ex.b['id']}), {scored}, "
                  f"model {ex.model_id}")
    t = Table()
    for col, justify in (("step", "left"), ("level", "left"), ("log2 BF", "right"), ("match weight", "right"),
                         ("probability", "right")):
        t.add_column(col, justify=justify)
    for s in ex.steps:
        t.add_row(s.step, s.level or "-", f"{s.log2:+.2f}", f"{s.match_weight:+.2f}", f"{s.probability:.4f}")
    app.out.print(t)
    if ex.cannot_link:
        app.out.print(f"cannot-link: {ex.cannot_link} (no evidence overrides it)")
    if ex.capped:
        app.out.print(f"held out of the auto band: {ex.capped}")
    if ex.band:
        app.out.print(f"band: {ex.band}")


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
    from kgres.curate import export

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
    from kgres.curate.review import review

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
@click.argument("decision", type=click.Choice(["accept", "reject", "unsure"]))
@click.argument("a")
@click.argument("b")
@click.option("--reason", default="", help="Why; stored with the decision.")
@json_option
@click.pass_obj
@writes("decide")
def decide_cmd(app: App, decision: str, a: str, b: str, reason: str, as_json: bool) -> None:
    """Accept (merge now), reject (never merge) or defer (unsure) two entities, by id or unique name.

    \b
    A rejection is a NOT_SAME_AS that every later run honours; an acceptance is
    a recorded run that 'kgres rollback RUN_ID' undoes. Both are kept as training
    labels of the next match model. 'unsure' records who deferred the pair and
    why; it stays in review, at the back of the console's queue.
    """
    from kgres.curate.review import decide

    d = decide(app.db, decision, a, b, reason=reason)
    if as_json:
        app.emit_json(d)
    else:
        verb = "deferred" if d.decision == "unsure" else f"{d.decision}ed"
        app.out.print(f"{verb} {d.a} and {d.b}" + (f" (run {d.run_id})" if d.run_id else ""))


@main.command("split")
@click.argument("target")
@click.option("--reason", default="split by a person", show_default=True, help="Stored on the NOT_SAME_AS.")
@json_option
@click.pass_obj
@writes("split")
def split_cmd(app: App, target: str, reason: str, as_json: bool) -> None:
    """Split a mention (by id) or an absorbed entity (by id or name) off the entity it was merged into.

    \b
    Restores exactly what it referred to before, and records NOT_SAME_AS so no
    later run merges it back.

    \b
    Example:
        kgres split "Mycroft Holmes"
    """
    from kgres.curate.split import split

    r = split(app.db, target, reason=reason)
    if as_json:
        app.emit_json(r)
    else:
        app.out.print(f"split {r.kind} off: {r.restored} restored, kept apart from {', '.join(r.kept_apart_from)}")


@main.command("rebuild")
@json_option
@click.pass_obj
@writes("rebuild")
def rebuild_cmd(app: App, as_json: bool) -> None:
    """Re-derive the entity layer (aliases, counts, RELATED) from mentions, decisions and triples,
    and rebuild the entity vector index (vector searches fail for the seconds that takes)."""
    from kgres.curate.rebuild import rebuild

    r = rebuild(app.db)
    if as_json:
        app.emit_json(r)
    else:
        index = "; entity vector index rebuilt" if r.vector_index_rebuilt else ""
        app.out.print(f"rebuilt {r.entities:,} entities{index}")
