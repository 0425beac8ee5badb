"""A local OpenAI-compatible HTTP server for tests: real sockets, scripted answers.

``/v1/embeddings`` answers with deterministic vectors derived from each input text (same text, same
vector), of ``dimensions`` floats. ``fail_next(status, body, headers)`` makes the next requests
fail as scripted (a 429 with ``Retry-After``, a 500, malformed JSON). Every request is recorded in
``requests`` so tests can check what was asked, and how often.
"""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OpenAIServer:
    def __init__(self, dimensions: int = 384) -> None:
        self.dimensions = dimensions
        self.requests: list[dict[str, Any]] = []
        self._failures: list[tuple[int, str, dict[str, str]]] = []
        self._lock = threading.Lock()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> "OpenAIServer":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def fail_next(self, status: int, body: str = "", headers: dict[str, str] | None = None, times: int = 1) -> None:
        with self._lock:
            self._failures += [(status, body, headers or {})] * times

    def vector(self, text: str) -> list[float]:
        """The vector this server gives ``text``: bytes of repeated SHA-256 digests, centred."""
        out: list[float] = []
        seed = text.encode("utf-8")
        while len(out) < self.dimensions:
            seed = hashlib.sha256(seed).digest()
            out += [(b - 127.5) / 127.5 for b in seed]
        return out[:self.dimensions]

    def _answer(self, path: str, body: dict[str, Any]) -> tuple[int, str, dict[str, str]]:
        with self._lock:
            self.requests.append({"path": path, "body": body})
            if self._failures:
                return self._failures.pop(0)
        if path.endswith("/embeddings"):
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            data = [{"object": "embedding", "index": i, "embedding": self.vector(t)} for i, t in enumerate(texts)]
            return 200, json.dumps({"object": "list", "data": data, "model": body.get("model"),
                                    "usage": {"prompt_tokens": len(texts), "total_tokens": len(texts)}}), {}
        return 404, json.dumps({"error": {"message": f"no route {path}"}}), {}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                status, text, headers = server._answer(self.path, body)
                payload = text.encode("utf-8")
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(payload)

            def log_message(self, *args: object) -> None:
                pass

        return Handler
