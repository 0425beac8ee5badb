"""The review console's pages, mounted on ``kgres serve``'s FastAPI app under ``/console``.

Server-rendered HTML (Jinja2 templates in ``templates/``), one small script for keyboard shortcuts
and one stylesheet, both served from ``/console/assets``; nothing comes from the network.

- ``GET /console``: the queue, most informative pairs first, filtered by type, run and source.
- ``GET /console/pair?a=&b=``: a pair side by side, with the model's waterfall; without ``a`` and
  ``b``, the first pair of the queue. ``POST /console/decide``: accept, reject, not sure (recorded
  through :func:`kgres.curate.review.decide`, as ``kgres decide`` records them) or skip.
- ``GET /console/entity/{id}``: the alias trail, the entities kept apart and why, and actions:
  split a mention out, roll back a run, each behind a page that says what will change.
- ``GET /console/search?q=``: entities by name, alias or mention name (full-text indexes).

Safety: beyond loopback the API's token is required (sent once to ``/console/login``, then kept
in an HttpOnly, SameSite=Strict cookie); every state-changing request carries a form token and is
refused from another origin; an action repeated after it took effect reports that it is done; an
action on something that changed since its page was rendered gets 409, not an overwrite.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Callable
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape

from kgres import console
from kgres.config import LockSettings
from kgres.db import Database
from kgres.db.lock import LockHeld, writer_lock
from kgres.errors import KgresError

COOKIE = "kgres_token"
DECIDED_BY = "human:console"
FILTERS = ("type", "run", "source")
MAX_SKIP = 200  # skipped pairs carried from page to page
PAGE = 100  # queue rows shown
TRAIL_ROWS = 500  # alias-trail rows an entity page shows
ASSETS = {"console.css": "text/css; charset=utf-8", "console.js": "text/javascript; charset=utf-8"}
HEADERS = {"Content-Security-Policy": "default-src 'self'; img-src 'self' data:; form-action 'self'; "
                                      "frame-ancestors 'none'; base-uri 'none'",
           "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin", "X-Content-Type-Options": "nosniff",
           "Cache-Control": "no-store"}


class Conflict(KgresError):
    """What an action was about changed since its page was rendered."""


def mount(app: FastAPI, db: Database, lock: LockSettings = LockSettings(), token: str | None = None) -> None:
    """Add the console's routes to ``app`` (the token itself is checked by the API's gate)."""
    env = Environment(loader=PackageLoader("kgres.console", "templates"), autoescape=select_autoescape(default=True))
    env.filters["fromjson"] = json.loads
    env.filters["evidence"] = _evidence
    form_token = hmac.new((token or secrets.token_hex(32)).encode(), b"kgres-console-form", hashlib.sha256).hexdigest()

    def page(name: str, status: int = 200, **ctx: Any) -> HTMLResponse:
        html = env.get_template(name).render(form_token=form_token, **ctx)
        return HTMLResponse(html, status_code=status, headers=HEADERS)

    def message(title: str, text: str, status: int, back: str = "/console") -> HTMLResponse:
        return page("message.html", status=status, title=title, text=text, back=back)

    def act(command: str, back: str, action: Callable[[], Response]) -> Response:
        """Run a state-changing ``action`` holding the writer lock; what stops it becomes a page: a
        change made meanwhile 409, a busy lock 503, a refusal 400."""
        try:
            with writer_lock(db, command, lock):
                return action()
        except Conflict as e:
            return message("Changed meanwhile", str(e), 409, back=back)
        except LockHeld as e:
            return message("Busy", str(e), 503, back=back)
        except KgresError as e:
            return message("Not done", str(e), 400, back=back)

    async def form(request: Request) -> dict[str, str]:
        """The posted form, once it is known to come from a console page of this server."""
        fields = {k: v[-1] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        if not hmac.compare_digest(fields.get("form_token", ""), form_token) or not _same_origin(request):
            raise _Refused()
        return fields

    @app.exception_handler(_Refused)
    def _refused(_: Request, __: _Refused) -> HTMLResponse:
        return message("Refused", "This request did not come from a console page of this server "
                       "(missing form token, or another origin).", 403)

    @app.get("/", include_in_schema=False)
    def root() -> RedirectResponse:
        return RedirectResponse("/console", status_code=307)

    @app.get("/console/assets/{name}", include_in_schema=False)
    def asset(name: str) -> Response:
        if name not in ASSETS:
            return Response(status_code=404)
        body = resources.files("kgres.console").joinpath("assets", name).read_bytes()
        return Response(body, media_type=ASSETS[name], headers={"Cache-Control": "max-age=300"})

    @app.get("/console/login", include_in_schema=False)
    def login_form(request: Request) -> HTMLResponse:
        return page("login.html", failed=bool(request.query_params.get("failed")))

    @app.post("/console/login", include_in_schema=False)
    async def login(request: Request) -> Response:
        sent = {k: v[-1] for k, v in parse_qs((await request.body()).decode("utf-8", "replace")).items()}
        if token is not None and not hmac.compare_digest(sent.get("token", "").encode(), token.encode()):
            return RedirectResponse("/console/login?failed=1", status_code=303)
        out = RedirectResponse("/console", status_code=303)
        if token is not None:
            out.set_cookie(COOKIE, token, httponly=True, samesite="strict", path="/")
        return out

    @app.get("/console", include_in_schema=False)
    def queue_page(request: Request) -> HTMLResponse:
        filters = _filters(request.query_params)
        q = console.queue(db, **_args(filters))
        prog = console.progress(db, q.total)
        return page("queue.html", queue=q, items=q.items[:PAGE], filters=filters, progress=prog,
                    qs=urlencode({k: v for k, v in filters.items() if v}), flash=request.query_params.get("flash"))

    @app.get("/console/pair", include_in_schema=False)
    def pair_page(request: Request) -> HTMLResponse:
        params = request.query_params
        filters, skip = _filters(params), _skip(params.get("skip", ""))
        a, b = params.get("a"), params.get("b")
        if not (a and b):
            q = console.queue(db, **_args(filters), skip=frozenset(skip))
            if not q.items:
                return page("message.html", title="Queue empty", status=200, back="/console?" + urlencode(filters),
                            text="No undecided review pair is left" + (" under these filters." if any(filters.values())
                                                                       else "."), flash=params.get("flash"))
            a, b = q.items[0].a_id, q.items[0].b_id
        return _pair(a, b, filters, skip, params.get("flash"))

    def _pair(a: str, b: str, filters: dict[str, str], skip: list[str], flash: str | None) -> HTMLResponse:
        from kgres.curate.explain import explain_pair

        try:
            ex = explain_pair(db, a, b)
        except KgresError as e:
            return message("Pair not found", str(e), 404)
        side = console.sides(db, [ex.a["id"], ex.b["id"]])
        left, right = side.get(ex.a["id"]), side.get(ex.b["id"])
        shared_keys = set(left["attributes"]) & set(right["attributes"]) if left and right else set()
        return page("pair.html", ex=ex, left=left, right=right, shared_keys=shared_keys,
                    neighbours=console.shared_neighbours(db, ex.a["id"], ex.b["id"]),
                    stamp=console.stamp(db, [ex.a["id"], ex.b["id"]]), filters=filters,
                    skip=",".join(skip), flash=flash, max_abs=max([abs(s.log2) for s in ex.steps] + [1.0]))

    @app.post("/console/decide", include_in_schema=False)
    async def decide_action(request: Request) -> Response:
        from kgres.curate.review import decide

        f = await form(request)
        a, b, what = f.get("a", ""), f.get("b", ""), f.get("decision", "")
        filters, skip = _filters(f), _skip(f.get("skip", ""))
        if what not in ("accept", "reject", "unsure", "skip") or not (a and b):
            return message("Bad request", "a decision needs a, b and one of accept, reject, unsure, skip", 400)
        if what == "skip":
            return _next(filters, skip + [console.pair_key(a, b)], f"skipped {a} / {b}")
        reason = f.get("reason", "").strip()[:2000]

        def run() -> Response:
            st = console.state(db, [a, b])
            done = _already(st, what, a, b)
            if done:
                return _next(filters, skip, done)
            if console.digest(st) != f.get("stamp"):
                raise Conflict(f"{a} or {b} changed since this page was shown (a merge, split, or "
                               "someone else's decision); the pair is shown again as it is now")
            d = decide(db, what, a, b, reason=reason, decided_by=DECIDED_BY)
            verb = {"accept": "accepted", "reject": "rejected", "unsure": "deferred"}[what]
            return _next(filters, skip, f"{verb} {d.a} / {d.b}" + (f" (run {d.run_id})" if d.run_id else ""))

        return act("console decide", f"/console/pair?{urlencode({'a': a, 'b': b})}", run)

    @app.get("/console/entity/{entity_id:path}", include_in_schema=False)
    def entity_page(entity_id: str, request: Request) -> HTMLResponse:
        from kgres.curate.explain import explain

        st = console.state(db, [entity_id]).get(entity_id) or {}
        if not st.get("current"):
            into = st.get("merged_into")
            text = f"{entity_id} was merged into {into}." if into else f"No entity with id {entity_id}."
            return message("Not a current entity", text, 404, back=f"/console/entity/{into}" if into else "/console")
        ex = explain(db, entity_id)
        side = console.sides(db, [entity_id]).get(entity_id)
        passages = {m["id"]: m["passage"] for m in side["mentions"]} if side else {}
        runs = sorted({m["run_id"] for m in ex.mentions if m.get("run_id") and not m["run_id"].startswith("ingest")})
        return page("entity.html", ex=ex, side=side, passages=passages, runs=runs, trail_rows=TRAIL_ROWS,
                    flash=request.query_params.get("flash"))

    @app.get("/console/split", include_in_schema=False)
    def split_confirm(request: Request) -> HTMLResponse:
        mention = request.query_params.get("mention", "")
        found = [r for r in db.read("curate_split_find", q=mention) if r["kind"] == "mention"]
        if not found or not found[0]["previous"]:
            return message("Nothing to split", f"mention {mention} was never moved by a merge", 404)
        hit = found[0]
        names = {k: v["entity"]["name"] for k, v in console.sides(db, [hit["current"], hit["previous"]]).items()}
        return page("confirm.html", action="/console/split", title="Split a mention out",
                    changes=[f"Mention {mention} moves from {names.get(hit['current'], hit['current'])} "
                             f"({hit['current']}) back to {hit['previous']}, the entity it referred to before its "
                             "latest move" + ("." if hit["previous"] in names else " (absorbed by that merge; it is "
                                                                                     "restored)."),
                             f"{hit['previous']} and {hit['current']} are recorded as NOT_SAME_AS: no later run "
                             "merges them back.",
                             "Both entities' names, aliases, counts and relations are recomputed."],
                    fields={"mention": mention, "entity": hit["current"], "previous": hit["previous"],
                            "stamp": console.stamp(db, [hit["current"], hit["previous"]])},
                    back=f"/console/entity/{hit['current']}")

    @app.post("/console/split", include_in_schema=False)
    async def split_action(request: Request) -> Response:
        from kgres.curate.split import split

        f = await form(request)
        mention, entity, previous = f.get("mention", ""), f.get("entity", ""), f.get("previous", "")
        reason = f.get("reason", "").strip()[:2000] or "split in the console"

        def run() -> Response:
            found = [r for r in db.read("curate_split_find", q=mention) if r["kind"] == "mention"]
            if found and found[0]["current"] == previous:
                return _to_entity(previous, f"mention {mention} was already split out")
            if not found or found[0]["current"] != entity or console.stamp(db, [entity, previous]) != f.get("stamp"):
                raise Conflict(f"mention {mention} or its entities changed since the confirmation was shown")
            r = split(db, mention, reason=reason, decided_by=DECIDED_BY)
            return _to_entity(r.restored, f"split {mention} out: it refers to {r.restored} again, kept apart from "
                                          f"{', '.join(r.kept_apart_from)}")

        return act("console split", f"/console/entity/{entity}", run)

    @app.get("/console/rollback", include_in_schema=False)
    def rollback_confirm(request: Request) -> HTMLResponse:
        run = request.query_params.get("run", "")
        effect = console.run_effect(db, run)
        if effect is None:
            return message("No such run", f"no resolution run {run}", 404)
        r = effect["run"]
        if r["status"] == "rolled_back":
            return message("Already rolled back", f"run {run} is already rolled back", 200)
        return page("confirm.html", action="/console/rollback", title=f"Roll back run {run}",
                    changes=[f"Run {run} ({r['strategy']}, started {r['started_at']}, {r['status']}) and its later "
                             "passes are undone, newest first.",
                             f"{effect['moved']:,} mention(s) move back to the entities they referred to before it; "
                             f"{effect['revived']:,} entit(ies) it absorbed come back; {effect['links']:,} SAME_AS "
                             "link(s) it made are removed.",
                             "Decisions people recorded (NOT_SAME_AS) stay. A later run that moved the same mentions "
                             "must be rolled back first."],
                    fields={"run": run, "stamp": r["status"]}, back="/console")

    @app.post("/console/rollback", include_in_schema=False)
    async def rollback_action(request: Request) -> Response:
        from kgres.resolve.merge import rollback

        f = await form(request)
        run_id = f.get("run", "")

        def run() -> Response:
            effect = console.run_effect(db, run_id)
            if effect is not None and effect["run"]["status"] == "rolled_back":
                return RedirectResponse("/console?" + urlencode({"flash": f"run {run_id} was already rolled back"}),
                                        status_code=303)
            if effect is None or effect["run"]["status"] != f.get("stamp"):
                raise Conflict(f"run {run_id} changed since the confirmation was shown")
            n = rollback(db, run_id)
            return RedirectResponse("/console?" + urlencode({"flash": f"rolled back {run_id}: {n} entities restored"}),
                                    status_code=303)

        return act("console rollback", "/console", run)

    @app.get("/console/search", include_in_schema=False)
    def search_page(request: Request) -> HTMLResponse:
        q = request.query_params.get("q", "").strip()[:200]
        return page("search.html", q=q, results=console.search(db, q) if q else [])


class _Refused(Exception):
    pass


def _same_origin(request: Request) -> bool:
    """A browser's POST from a page of this server: no Origin naming another host, and no fetch
    metadata saying it is cross-site."""
    if request.headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
        return False
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host", "")


def _filters(params: Any) -> dict[str, str]:
    return {k: str(params.get(k) or "")[:300] for k in FILTERS}


def _args(filters: dict[str, str]) -> dict[str, str | None]:
    return {"type_": filters["type"] or None, "run": filters["run"] or None, "source": filters["source"] or None}


def _skip(value: str) -> list[str]:
    return [k for k in value.split(",") if k][-MAX_SKIP:]


def _next(filters: dict[str, str], skip: list[str], flash: str) -> RedirectResponse:
    query = {**{k: v for k, v in filters.items() if v}, "flash": flash, **({"skip": ",".join(skip)} if skip else {})}
    return RedirectResponse("/console/pair?" + urlencode(query), status_code=303)


def _to_entity(entity_id: str, flash: str) -> RedirectResponse:
    return RedirectResponse(f"/console/entity/{entity_id}?" + urlencode({"flash": flash}), status_code=303)


def _already(st: dict[str, dict[str, Any]], what: str, a: str, b: str) -> str | None:
    """The decision already took effect (a repeated submit; ``st`` from :func:`kgres.console.state`):
    what to say instead of doing it again."""
    sa, sb = st.get(a, {}), st.get(b, {})
    if what == "accept" and (sa.get("merged_into") == b or sb.get("merged_into") == a):
        return f"{a} and {b} were already accepted as one entity"
    if what == "reject" and b in (sa.get("apart") or []):
        return f"{a} and {b} were already rejected"
    if what == "unsure" and any(p.startswith(f"{b}:") and not p.endswith(":") for p in sa.get("pairs") or []):
        return f"{a} and {b} were already deferred"
    return None


def _evidence(value: str | None) -> str:
    """A REFERS_TO's evidence as one line: rule, score and what it was linked to (else the text)."""
    if not value or not value.startswith("{"):
        return value or ""
    try:
        d = json.loads(value)
    except ValueError:
        return value
    return f"{d.get('rule')} {d.get('score')} via {d.get('linked_to')}" + (f": {d['reason']}" if d.get("reason") else "")


def cookie_token(cookie_header: str) -> str:
    """The console's token cookie from a Cookie header ('' when absent)."""
    from http.cookies import SimpleCookie

    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except Exception:  # a malformed Cookie header is no token
        return ""
    return jar[COOKIE].value if COOKIE in jar else ""


OPEN_PATHS = ("/console/login", "/console/assets/")  # reachable without the token: the login page and its style


def open_path(path: str) -> bool:
    return path == OPEN_PATHS[0] or path.startswith(OPEN_PATHS[1])

