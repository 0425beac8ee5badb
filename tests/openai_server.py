"""A local OpenAI-compatible HTTP server for tests: real sockets, scripted answers.

``/v1/embeddings`` answers with deterministic vectors derived from each input text (same text, same
vector), of ``dimensions`` floats. ``/v1/chat/completions`` answers with ``chat(body)`` (a function
the test sets; it returns the message content, or a dict for the whole message). ``fail_next(status,
body, headers)`` makes the next requests fail as scripted (a 429 with ``Retry-After``, a 500,
malformed JSON); ``delay`` seconds are slept before answering (a timeout). With
``reject_json_schema`` the server refuses the JSON-schema response format, as some servers do.
Every request is recorded in ``requests`` so tests can check what was asked, and how often.
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
        self.chat: Any = lambda body: '{"decision": "unsure", "confidence": 0.5, "evidence": []}'
        self.delay = 0.0
        self.reject_json_schema = False
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
        if path.endswith("/chat/completions"):
            if self.reject_json_schema and body.get("response_format", {}).get("type") == "json_schema":
                return 400, json.dumps({"error": {"message": "response_format json_schema not supported"}}), {}
            if self.delay:
                import time
                time.sleep(self.delay)
            out = self.chat(body)
            message = out if isinstance(out, dict) else {"role": "assistant", "content": out}
            return 200, json.dumps({"id": "chat-1", "object": "chat.completion", "created": 0, "model": body.get("model"),
                                    "choices": [{"index": 0, "message": {"role": "assistant", **message},
                                                 "finish_reason": "stop"}],
                                    "usage": self._usage(body, message)}), {}
        return 404, json.dumps({"error": {"message": f"no route {path}"}}), {}

    @staticmethod
    def _usage(body: dict[str, Any], message: dict[str, Any]) -> dict[str, int]:
        """Token counts estimated as characters / 4 (at least 1), like a tokenizer would roughly give."""
        prompt = max(1, sum(len(m.get("content") or "") for m in body.get("messages", [])) // 4)
        completion = max(1, len(message.get("content") or "") // 4)
        return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}

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
