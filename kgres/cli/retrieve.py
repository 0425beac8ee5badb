"""``kgres query | communities | serve``: retrieval from the resolved graph."""

from __future__ import annotations

import os

import click
from rich.table import Table

from kgres.cli import App, json_option, main, writes
from kgres.errors import ConfigError
from kgres.retrieve import MODES


def _retriever(app: App, with_llm: bool = True):
    from kgres.resolve.embed import EmbedConfig
    from kgres.llm import LLMSettings, client, configured_model
    from kgres.retrieve import RetrieveConfig, Retriever

    try:
        embed = EmbedConfig.model_validate(app.settings.resolve.get("embed", {}))
        cfg = RetrieveConfig.model_validate(app.settings.retrieve)
        llm_settings = LLMSettings.model_validate(app.settings.llm)
    except ValueError as e:
        raise ConfigError(f"invalid settings: {e}") from e
    llm = client(app.db, llm_settings) if with_llm and configured_model(llm_settings) else None
    return Retriever(app.db, embed, cfg, llm=llm)


@main.command("query")
@click.argument("question")
@click.option("--mode", type=click.Choice(MODES), default=None, help="local, ppr or community. [default: local]")
@click.option("--layer", type=click.Choice(["entities", "mentions"]), default="entities", show_default=True,
              help="mentions: ask the unresolved mention layer, as an exact-string system would.")
@click.option("--k", type=click.IntRange(1, 50), default=None, help="Seed entities from the vector index.")
@click.option("--hops", type=click.IntRange(1, 3), default=None, help="Expansion depth (local mode).")
@click.option("--budget", "budget_tokens", type=click.IntRange(50, 200_000), default=None,
              help="Token budget of the returned context.")
@click.option("--no-answer", is_flag=True, help="Only the context, even with an LLM configured.")
@json_option
@click.pass_obj
def query_cmd(app: App, question: str, mode: str | None, layer: str, k: int | None, hops: int | None,
              budget_tokens: int | None, no_answer: bool, as_json: bool) -> None:
    """Retrieve the graph context for QUESTION (and answer it, citing sources, with an LLM).

    \b
    Entities come with their alias trail (the names joined into them and by which
    decision), relations with their source triples, chunks with their ids.
    Triples filtered by 'kgres reflect' never appear.

    \b
    Example:
        kgres query "Who lodged at Baker Street?" --mode ppr --json
    """
    r = _retriever(app, with_llm=not no_answer)
    overrides = {k_: v for k_, v in (("mode", mode), ("k", k), ("hops", hops), ("budget_tokens", budget_tokens))
                 if v is not None}
    ctx = r.retrieve(question, layer=layer, **overrides)  # type: ignore[arg-type]
    answer = r.answer(ctx) if r.llm is not None else None
    if as_json:
        app.emit_json({**ctx.model_dump(), "answer": answer.model_dump() if answer else None})
        return
    app.out.print(ctx.text(), markup=False, highlight=False)
    app.err.print(f"{ctx.mode} on the {ctx.layer} layer: {len(ctx.entities)} entities, {len(ctx.relations)} "
                  f"relations, {len(ctx.chunks)} chunks, {ctx.tokens} tokens"
                  f"{' (cut to the budget)' if ctx.truncated else ''}, {ctx.ms:.0f} ms")
    if answer is not None:
        app.out.print(f"\nAnswer: {answer.answer}", markup=False, highlight=False)
        if answer.citations:
            app.out.print("Sources: " + ", ".join(answer.citations), markup=False, highlight=False)
    elif not no_answer:
        app.err.print("no LLM configured (KGRES_LLM_MODEL): context only")


@main.command("communities")
@click.option("--force", is_flag=True, help="Rebuild even if the graph has not changed.")
@json_option
@click.pass_obj
@writes("communities")
def communities_cmd(app: App, force: bool, as_json: bool) -> None:
    """Build the Leiden communities of the resolved graph, with summaries and embeddings.

    \b
    Summaries come from the LLM when one is configured, else they are extractive
    (members and strongest relations). 'kgres query --mode community' builds them
    itself when the graph changed since the last build.
    """
    out = _retriever(app).communities(force=force)
    if as_json:
        app.emit_json(out)
        return
    t = Table("communities", "built now", "modularity")
    t.add_row(f"{out['communities']:,}", "yes" if out["built"] else "no (current)",
              f"{out.get('modularity', 0):.3f}" if out["built"] else "-")
    app.out.print(t)


@main.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Bind address; beyond loopback a token is required (KGRES_SERVE_TOKEN).")
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.pass_obj
def serve_cmd(app: App, host: str, port: int) -> None:
    """Serve retrieval over HTTP: POST /retrieve, GET /entities/{id}, GET /health, and take new
    mentions: POST /mentions (written and resolved, one writer at a time). People review
    pairs in the console at /console (queue, pair, entity, search).

    \b
    OpenAPI schema at /openapi.json (load it into any OpenAPI viewer). With
    KGRES_SERVE_TOKEN set, every request must send 'Authorization: Bearer <token>'
    (a browser signs in once at /console/login and keeps it in a cookie).

    \b
    Example:
        kgres serve --port 8765 &
        curl -s localhost:8765/retrieve -H 'content-type: application/json' \\
             -d '{"query": "Who lodged at Baker Street?", "mode": "local"}'
    """
    from kgres.retrieve.serve import Server, check_bind, create_app

    token = os.environ.get("KGRES_SERVE_TOKEN") or None
    check_bind(host, token)
    retriever = _retriever(app)
    retriever.encode("warm up")  # load the model before the first request, not during it
    app.err.print(f"kgres serving http://{host}:{port} (schema at /openapi.json, review console at /console)"
                  f"{' with a token' if token else ''}")
    from kgres.cli.resolve import resolve_config
    from kgres.resolve import preload

    resolve_cfg = resolve_config(app)
    preload(resolve_cfg)  # POST /mentions embeds with it: loaded now, not in the first batch (4 s at 100k)
    Server(create_app(app.db, retriever, token, resolve_cfg=resolve_cfg, lock=app.settings.lock),
           host, port).run()
