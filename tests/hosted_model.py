"""A tiny OpenAI-compatible model server on the loopback, for tests of the hosted path.

It answers ``POST /v1/chat/completions`` the way a hosted provider does (a whole JSON answer,
not streamed: memory passes never stream) with the answers a test scripts, and keeps every
request it received, body and headers, so a test can check what litellm really sent over HTTP:
the messages, ``response_format``, ``temperature``, the token bound, the key. Nothing of ours
is faked: the product talks to it through litellm's own ``openai`` provider, as to a real one.

An answer is a text, ``("status", code, body)`` for an HTTP error, ``("cut", text)`` for one
stopped at ``max_tokens``, ``("stream", pieces)`` for a
streamed answer (server-sent chunks as OpenAI sends them; a ``threading.Event`` among the
pieces holds the stream there until the test sets it), or a callable of the request body
returning one of those. With nothing scripted it answers ``{"edits": []}``.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from memory.rules.budget import count_tokens

Answer = str | tuple[str, int, Any] | Callable[[dict[str, Any]], Any]


class HostedModel:
    """The server and its script. ``base_url`` is what litellm takes as ``api_base``."""

    def __init__(self) -> None:
        self.answers: deque[Answer] = deque()
        self.requests: list[dict[str, Any]] = []
        self.paths: list[str] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # keep the test output clean
                return None

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                model.paths.append(self.path)
                model.headers.append({k.lower(): v for k, v in self.headers.items()})
                if not self.path.rstrip("/").endswith("/chat/completions"):
                    self._send(404, {"error": {"message": "not found", "type": "not_found"}})
                    return
                item = model._next(body)
                if isinstance(item, tuple) and item[0] == "status":
                    self._send(item[1], item[2])
                elif isinstance(item, tuple) and item[0] == "stream":
                    self._stream(body, item[1])
                elif isinstance(item, tuple) and item[0] == "cut":
                    self._send(200, _completion(body, item[1], finish_reason="length"))
                else:
                    self._send(200, _completion(body, str(item)))

            def _stream(self, body: dict[str, Any], pieces: list[Any]) -> None:
                # Delimited by closing the connection, as an HTTP/1.1 server may.
                self.close_connection = True
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                for piece in [*pieces, None]:
                    if isinstance(piece, threading.Event):
                        piece.wait(timeout=60)  # a bound, should the test never set it
                        continue
                    delta = {} if piece is None else {"content": piece}
                    chunk = {
                        "id": "chatcmpl-local",
                        "object": "chat.completion.chunk",
                        "created": int(time.time()),
                        "model": body.get("model", ""),
                        "choices": [
                            {
                                "index": 0,
                                "delta": delta,
                                "finish_reason": "stop" if piece is None else None,
                            }
                        ],
                    }
                    self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                    self.wfile.flush()
                self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

            def _send(self, status: int, data: Any) -> None:
                raw = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        # Bound to the loopback only: the suite refuses any other address.
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> HostedModel:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def answer(self, *items: Answer) -> None:
        self.answers.extend(items)

    def reset(self) -> None:
        with self._lock:
            self.answers.clear()
            self.requests.clear()
            self.paths.clear()
            self.headers.clear()

    def _next(self, body: dict[str, Any]) -> Any:
        with self._lock:
            self.requests.append(body)
            item: Any = self.answers.popleft() if self.answers else '{"edits": []}'
        while callable(item):
            item = item(body)
        return item


def _completion(body: dict[str, Any], text: str, finish_reason: str = "stop") -> dict[str, Any]:
    """A chat completion as OpenAI's API returns it, with usage counted in o200k tokens."""
    prompt = sum(count_tokens(str(m.get("content") or "")) for m in body.get("messages", []))
    completion = count_tokens(text)
    return {
        "id": "chatcmpl-local",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text},
                "finish_reason": finish_reason,
            }
        ],
        "usage": {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        },
    }
