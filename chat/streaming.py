"""Server-sent events for streamed replies, shared by the web page and the mobile API.

Sync generators on purpose: under WSGI an async generator is buffered to the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator

from django.http import StreamingHttpResponse

from chat.services import StreamEvent


def _event(kind: str, data: object) -> str:
    return f"event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def streaming_reply(events: Iterator[StreamEvent], **first: object) -> StreamingHttpResponse:
    """A ``text/event-stream`` response: a "start" event with ``first``, then the reply's
    "delta" events, closed by "done" or "error"."""

    def body() -> Iterator[str]:
        yield _event("start", first)
        for event in events:
            yield _event(event.kind, event.data)

    response = StreamingHttpResponse(body(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
