"""Server-sent events for streamed replies, shared by the web page and the mobile API.

Sync generators on purpose: under WSGI an async generator is buffered to the end.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import cast

from django.http import StreamingHttpResponse

from chat import markdown
from chat.models import Message
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


def with_markdown(events: Iterator[StreamEvent]) -> Iterator[StreamEvent]:
    """The web page's events: a "delta" carries sanitised HTML when a render is due, "done"
    the stored reply rendered. The API streams plain Markdown."""
    reply = markdown.LiveReply()
    for event in events:
        if event.kind == "delta":
            preview = reply.add(str(event.data.get("content", "")))
            if preview is not None:
                data = {**event.data, "settled": preview.settled, "live": preview.live}
                event = StreamEvent("delta", data)
        elif event.kind == "done":
            reply_id = cast(int | None, event.data["assistant_message_id"])
            stored = Message.objects.filter(pk=reply_id) if reply_id is not None else None
            text = stored.values_list("content", flat=True).first() if stored else None
            event = StreamEvent("done", {**event.data, "html": markdown.render(text or "")})
        yield event
