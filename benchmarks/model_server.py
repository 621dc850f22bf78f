"""The benchmark's hosted models: an OpenAI-compatible server on the loopback, in a process of
its own, so the product reaches its models the way it reaches a provider, through litellm's
``openai`` provider over HTTP.

    python -m benchmarks.model_server PORT

``POST /v1/chat/completions`` answers at once: a chat request a short reply, whole or streamed;
a memory call (one that asks for an answer format, as every pass does) edits against the
numbered list it is sent (``benchmarks.instant``). Usage is counted in o200k tokens, as a
provider bills. Its own CPU is the provider's, not the product's: the benchmark leaves this
process out of its accounts.
"""

from __future__ import annotations

import json
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from benchmarks.instant import answer
from memory.rules.budget import count_tokens


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # No Nagle wait behind a delayed ACK.
    disable_nagle_algorithm = True

    def log_message(self, *args: Any) -> None:
        return None

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._send(404, {"error": {"message": "not found", "type": "not_found"}})
            return
        model = str(body.get("model", ""))
        messages = body.get("messages", [])
        text = answer("memory" if body.get("response_format") else "chat", messages)
        if body.get("stream"):
            self._stream(model, text)
            return
        prompt = sum(count_tokens(_text(m.get("content"))) for m in messages)
        completion = count_tokens(text)
        self._send(
            200,
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt,
                    "completion_tokens": completion,
                    "total_tokens": prompt + completion,
                },
            },
        )

    def _stream(self, model: str, text: str) -> None:
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        for delta, finish in (({"content": text}, None), ({}, "stop")):
            chunk = {
                "id": "chatcmpl-bench",
                "object": "chat.completion.chunk",
                "created": int(time.time()),
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
            }
            self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
        self.wfile.write(b"data: [DONE]\n\n")

    def _send(self, status: int, data: Any) -> None:
        """Status line, headers and body in one write: one segment on the wire."""
        raw = json.dumps(data).encode()
        head = (
            f"HTTP/1.1 {status} {'OK' if status == 200 else 'Error'}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(raw)}\r\n\r\n"
        )
        self.wfile.write(head.encode() + raw)


def _text(content: Any) -> str:
    if isinstance(content, list):  # content parts (a cache mark)
        return "".join(str(part.get("text", "")) for part in content if isinstance(part, dict))
    return str(content or "")


def main() -> None:
    count_tokens("warm")  # the tokenizer loads now, not in the first reply it times
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Handler)
    server.daemon_threads = True
    print("model server ready", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
