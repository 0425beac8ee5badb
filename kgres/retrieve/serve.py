"""``kgres serve``: the retrieval HTTP API (FastAPI; OpenAPI schema at ``/openapi.json``).

- ``GET /health``: the server and the database answer (503 when Neo4j is down).
- ``POST /retrieve``: ``{"query", "mode"?, "layer"?, "k"?, "hops"?, "budget_tokens"?, "answer"?}`` ->
  the context of :func:`kgres.retrieve.Retriever.retrieve` (and an answer citing its sources when
  asked and an LLM is configured).
- ``GET /entities/{id}``: the entity with its alias trail (as ``kgres explain``); 404 when unknown.
- ``POST /mentions``: ``{"records": [...], "source"?, "resolve"?}``: interchange records (as the
  lines of a JSONL file: documents, chunks, mentions, triples) are validated, written and resolved
  (incrementally on a resolved graph, as ``kgres ingest jsonl FILE --resolve``: a batch sent again
  resolves nothing new, at once); the answer gives,
  per input mention, the entity it now refers to, the confidence and the method. A malformed record
  gets 422 naming its position and field, and nothing is written; a writer holding the database
  longer than the lock's wait gets 503 naming it.

- ``/console``: the review console (:mod:`kgres.console.web`), for people in a browser.

Bad requests get a 4xx with a message naming the problem (422 for a malformed body, 400 for a
request kgres refuses, 401 without the token, 413 for a body over ``max_body_bytes``); an error
names the field and the problem and never repeats the input. Loopback by default; binding any other
address needs a token (``KGRES_SERVE_TOKEN``), which every request, the OpenAPI schema included,
must then send as ``Authorization: Bearer <token>`` (a browser: once, to ``/console/login``, which
keeps it in a cookie); it is checked before the body is read. There
is no ``/docs`` page (its script comes from a CDN, unreachable offline): ``/openapi.json`` loads
into any OpenAPI viewer.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import threading
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field, field_validator

from kgres import __version__
from kgres.config import LockSettings
from kgres.console import web
from kgres.db import Database
from kgres.db.lock import LockHeld, writer_lock
from kgres.errors import ConfigError, DatabaseUnavailable, InputError, KgresError
from kgres.ingest import ingest_records
from kgres.resolve import ResolveConfig, resolve
from kgres.retrieve.retriever import RetrieveMode, Retriever
from kgres.schema import Layer


MAX_RECORDS = 50_000  # records in one POST /mentions


MAX_BODY_BYTES = 64 * 1024 * 1024  # a request body larger than this gets 413 (POST /mentions batches)


class RetrieveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000)

    @field_validator("query")
    @classmethod
    def _encodable(cls, v: str) -> str:
        try:
            v.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("not valid Unicode text (a lone surrogate)") from None
        return v
    mode: RetrieveMode = "local"
    layer: Layer = "entities"
    k: int | None = Field(None, ge=1, le=50)
    hops: int | None = Field(None, ge=1, le=3)
    budget_tokens: int | None = Field(None, ge=50, le=200_000)
    answer: bool = False


class MentionsRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    records: list[dict[str, Any]] = Field(min_length=1, max_length=MAX_RECORDS,
                                          description="interchange records, as the lines of a kgres JSONL file")
    source: str = Field("api", pattern=r"^[A-Za-z0-9_.-]{1,64}$",
                        description="namespace of the records' ids (as kgres ingest --source)")
    resolve: bool = Field(True, description="resolve the new mentions (false: only write them); a batch sent "
                                            "again resolves nothing new and answers at once")


def create_app(db: Database, retriever: Retriever, token: str | None = None,
               resolve_cfg: ResolveConfig | None = None, lock: LockSettings = LockSettings(),
               max_body_bytes: int = MAX_BODY_BYTES, console: bool = True) -> FastAPI:
    """The FastAPI application over one database and retriever (annotations are resolved from this
    module's globals, hence the module-level FastAPI imports). ``resolve_cfg`` and ``lock`` are
    what ``POST /mentions`` resolves with and how long it waits for another writer; ``console``
    adds the review console's pages (:mod:`kgres.console.web`)."""
    if token is not None and not token.strip():
        raise ConfigError("KGRES_SERVE_TOKEN is blank; set a real token or unset it")
    app = FastAPI(title="kgres retrieval", version=__version__, docs_url=None, redoc_url=None,
                  description="Graph retrieval served from the resolved knowledge graph in Neo4j.")
    app.add_middleware(Gate, token=token, max_body_bytes=max_body_bytes)

    def check_token(request: Request) -> None:
        """Documents the header in the OpenAPI schema; the Gate middleware enforces it first."""

    @app.exception_handler(RequestValidationError)
    def _invalid(_: Request, e: RequestValidationError) -> JSONResponse:
        errors = [{"loc": [str(x) for x in err.get("loc", ())][:8], "msg": str(err.get("msg", ""))[:300],
                   "type": str(err.get("type", ""))} for err in e.errors()[:20]]
        return JSONResponse(status_code=422, content={"detail": errors})

    @app.exception_handler(DatabaseUnavailable)
    def _down(_: Request, e: DatabaseUnavailable) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(e)})

    @app.exception_handler(ConfigError)
    def _refused(_: Request, e: ConfigError) -> JSONResponse:
        return JSONResponse(status_code=400, content={"detail": str(e)})

    @app.exception_handler(KgresError)
    def _failed(_: Request, e: KgresError) -> JSONResponse:
        return JSONResponse(status_code=500, content={"detail": str(e)})

    @app.get("/health", dependencies=[Depends(check_token)])
    def health() -> dict[str, Any]:
        n = db.read("retrieve_serve_health")[0]["n"]
        return {"status": "ok", "version": __version__, "entities": n}

    @app.post("/retrieve", dependencies=[Depends(check_token)])
    def retrieve(req: RetrieveRequest) -> dict[str, Any]:
        overrides = {k: v for k, v in (("mode", req.mode), ("k", req.k), ("hops", req.hops),
                                       ("budget_tokens", req.budget_tokens)) if v is not None}
        ctx = retriever.retrieve(req.query, layer=req.layer, **overrides)
        out = ctx.model_dump()
        if req.answer:
            out["answer"] = retriever.answer(ctx).model_dump()
        return out

    @app.exception_handler(InputError)
    def _malformed(_: Request, e: InputError) -> JSONResponse:
        return JSONResponse(status_code=422, content={"detail": str(e)[:2000]})

    @app.exception_handler(LockHeld)
    def _busy(_: Request, e: LockHeld) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": str(e)}, headers={"Retry-After": "5"})

    @app.post("/mentions", dependencies=[Depends(check_token)])
    def mentions(req: MentionsRequest) -> dict[str, Any]:
        """Write a batch of records and resolve its mentions; per input mention, its entity."""
        keys = [str(r.get("id")) for r in req.records if isinstance(r, dict) and r.get("kind") == "mention"]
        with writer_lock(db, "serve POST /mentions", lock):
            stats = ingest_records(db, req.records, source=req.source)
            resolved = resolve(db, resolve_cfg or ResolveConfig(), after_import=True) if req.resolve else None
        rows = {r["key"]: r for r in db.read("retrieve_serve_mentions", ids=[f"{req.source}:{k}" for k in keys])}
        return {"ingest": stats.model_dump(), "resolve": resolved.model_dump() if resolved else None,
                "mentions": [{"id": k, **{f: rows.get(k, {}).get(f) for f in
                                          ("entity_id", "entity_name", "confidence", "method", "run_id")}}
                             for k in keys]}

    @app.get("/entities/{entity_id:path}", dependencies=[Depends(check_token)])
    def entity(entity_id: str) -> dict[str, Any]:
        rows = db.read("curate_explain_entity", id=entity_id)
        if not rows:
            raise HTTPException(status_code=404, detail=f"no entity with id '{entity_id}'")
        row = rows[0]
        row["mentions"].sort(key=lambda m: m["id"])
        return row

    if console:
        web.mount(app, db, lock, token)
    return app


class Gate:
    """ASGI middleware in front of every route: the token (when one is set) is checked before
    anything else, the scheme case-insensitively (``bearer`` too), and a body over ``max_body_bytes``
    is refused with 413 without being read whole."""

    def __init__(self, app: Any, token: str | None, max_body_bytes: int) -> None:
        self.app, self.token, self.max = app, token, max_body_bytes

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        if self.token is not None and not self._authorised(headers) and not web.open_path(scope.get("path", "")):
            if scope.get("path", "").startswith("/console") and scope.get("method") == "GET":
                return await _redirect(send, "/console/login")
            return await _reply(send, 401, "missing or wrong token (Authorization: Bearer <token>)")
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max):
            return await _reply(send, 413, f"request body over {self.max:,} bytes")
        seen = 0

        async def limited() -> dict:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _reply(send, 413, f"request body over {self.max:,} bytes")

    def _authorised(self, headers: dict[str, str]) -> bool:
        """The bearer token, or the console's cookie (set by ``/console/login``), matches."""
        scheme, _, value = headers.get("authorization", "").strip().partition(" ")
        if scheme.lower() == "bearer" and hmac.compare_digest(value.strip().encode(), self.token.encode()):
            return True
        cookie = web.cookie_token(headers.get("cookie", ""))
        return bool(cookie) and hmac.compare_digest(cookie.encode(), self.token.encode())


class _TooLarge(Exception):
    pass


async def _redirect(send: Any, location: str) -> None:
    await send({"type": "http.response.start", "status": 303,
                "headers": [(b"location", location.encode()), (b"content-length", b"0")]})
    await send({"type": "http.response.body", "body": b""})


async def _reply(send: Any, status: int, detail: str) -> None:
    body = json.dumps({"detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a token.

    Raises:
        ConfigError: ``host`` is not a loopback address and no token is set.
    """
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not (token and token.strip()):
        raise ConfigError(f"serving on {host} (beyond loopback) needs a token: set KGRES_SERVE_TOKEN")


class Server:
    """uvicorn in a background thread (tests, benches) or the foreground (``kgres serve``)."""

    def __init__(self, app: Any, host: str = "127.0.0.1", port: int = 8765) -> None:
        import uvicorn

        self.host, self.port = host, port
        self._server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning",
                                                     access_log=False))
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def run(self) -> None:
        self._server.run()

    def __enter__(self) -> "Server":
        import time

        self._thread = threading.Thread(target=self._server.run, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 20
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise KgresError(f"the HTTP server did not start on {self.url}")
            time.sleep(0.05)
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
