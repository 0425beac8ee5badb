"""``kgres serve``: the retrieval HTTP API (FastAPI; OpenAPI schema at ``/openapi.json``, docs at ``/docs``).

- ``GET /health``: the server and the database answer (503 when Neo4j is down).
- ``POST /retrieve``: ``{"query", "mode"?, "layer"?, "k"?, "hops"?, "budget_tokens"?, "answer"?}`` ->
  the context of :func:`kgres.retrieve.Retriever.retrieve` (and an answer citing its sources when
  asked and an LLM is configured).
- ``GET /entities/{id}``: the entity with its alias trail (as ``kgres explain``); 404 when unknown.

Bad requests get a 4xx with a message naming the problem (422 for a malformed body, 400 for a
request kgres refuses, 401 without the token). Loopback by default; binding any other address
needs a token (``KGRES_SERVE_TOKEN``), which every request must then send as ``Authorization:
Bearer <token>``.
"""

from __future__ import annotations

import hmac
import ipaddress
import threading
from typing import Any

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from kgres import __version__
from kgres.db import Database
from kgres.errors import ConfigError, DatabaseUnavailable, KgresError
from kgres.retrieve.retriever import RetrieveMode, Retriever
from kgres.schema import Layer


class RetrieveRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=4000)
    mode: RetrieveMode = "local"
    layer: Layer = "entities"
    k: int | None = Field(None, ge=1, le=50)
    hops: int | None = Field(None, ge=1, le=3)
    budget_tokens: int | None = Field(None, ge=50, le=200_000)
    answer: bool = False


def create_app(db: Database, retriever: Retriever, token: str | None = None) -> FastAPI:
    """The FastAPI application over one database and retriever (annotations are resolved from this
    module's globals, hence the module-level FastAPI imports)."""
    app = FastAPI(title="kgres retrieval", version=__version__,
                  description="Graph retrieval served from the resolved knowledge graph in Neo4j.")

    def check_token(request: Request) -> None:
        if token is None:
            return
        sent = request.headers.get("authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            raise HTTPException(status_code=401, detail="missing or wrong token (Authorization: Bearer <token>)")

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

    @app.get("/entities/{entity_id}", dependencies=[Depends(check_token)])
    def entity(entity_id: str) -> dict[str, Any]:
        rows = db.read("curate_explain_entity", id=entity_id)
        if not rows:
            raise HTTPException(status_code=404, detail=f"no entity with id '{entity_id}'")
        row = rows[0]
        row["mentions"].sort(key=lambda m: m["id"])
        return row

    return app


def check_bind(host: str, token: str | None) -> None:
    """Refuse to serve beyond loopback without a token.

    Raises:
        ConfigError: ``host`` is not a loopback address and no token is set.
    """
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not token:
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
