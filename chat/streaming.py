"""Server-sent events for streamed replies, shared by the web page and the mobile API.

Sync generators on purpose: under WSGI an async generator is buffered to the end.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator, Mapping
from typing import cast

from django.conf import settings
from django.http import StreamingHttpResponse

from chat import markdown, services
from chat import relay as relays
from chat.models import Message
from chat.relay import Position, Relay
from chat.services import StreamEvent
from core.middleware import current_request_id, logging_as

log = logging.getLogger(__name__)


KEEP_ALIVE = ": keep-alive\n\n"


def _event(kind: str, data: object, event_id: str | None = None) -> str:
    head = f"id: {event_id}\n" if event_id else ""
    return f"{head}event: {kind}\ndata: {json.dumps(data, ensure_ascii=False, default=str)}\n\n"


def event_stream(body: Iterator[str]) -> StreamingHttpResponse:
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response


def streaming_reply(
    events: Iterator[StreamEvent], first: Mapping[str, object], *, relay: Relay | None = None
) -> StreamingHttpResponse:
    """A ``text/event-stream`` response: a "start" event with ``first``, then the reply's
    "delta" events, closed by "done" or "error". With a ``relay``, every event has an id and
    is kept for a reconnect.

    A client that goes away does not end the reply: it is generated to its end and stored,
    and the rest is relayed for when the client comes back. Only a stop ends it early."""

    request_id = current_request_id()  # the view's: the body runs after it returned

    def body() -> Iterator[str]:
        with logging_as(request_id):
            try:
                yield _event("start", first, relay.position.event_id if relay else None)
                for event in events:
                    if event.kind == "keepalive":
                        yield KEEP_ALIVE
                        continue
                    event_id = relay.publish(event.kind, event.data) if relay else None
                    yield _event(event.kind, event.data, event_id)
            except GeneratorExit:
                # The server closes us when a write fails: drain without writing, then end.
                for event in events:
                    if relay is not None and event.kind != "keepalive":
                        relay.publish(event.kind, event.data)
                log.info("chat.reply_finished_unread")

    return event_stream(body())


def resumed_reply(
    question: Message, after: Position | None, first: Mapping[str, object]
) -> StreamingHttpResponse:
    """The reply to ``question`` for a client that came back. With ``after`` (its
    ``Last-Event-ID``) of a run still kept, only the events after it. Otherwise all of it
    from a "start" event (an app shows the reply afresh on "start"): the newest run while it
    is kept, else the stored reply. Raises ``RelayUnavailable`` when Redis cannot be asked: the
    caller answers 503 before any stream."""
    chat = question.conversation_id
    deadline = time.monotonic() + settings.CHAT_MODEL_TIMEOUT * 10 + relays.KEPT_FOR
    if after is not None and after.question == question.pk and relays.kept(chat, after):
        return event_stream(_relayed([], relays.read_on(chat, after, deadline=deadline)))
    run = relays.latest_run(chat, question.pk)
    if run is not None and relays.kept(chat, start := Position(question.pk, run)):
        head = [_event("start", first, start.event_id)]
        return event_stream(_relayed(head, relays.read_on(chat, start, deadline=deadline)))
    start = Position(question.pk, 0)
    head = [_event("start", first, start.event_id)]
    return event_stream(iter([*head, *_from_table(start, question.newest_reply())]))


def _relayed(head: list[str], rest: Iterator[relays.Relayed | None]) -> Iterator[str]:
    yield from head
    for event in rest:
        yield KEEP_ALIVE if event is None else _event(event.kind, event.data, event.event_id)


def _from_table(start: Position, reply: Message | None) -> list[str]:
    """The stored outcome as events after ``start``: the reply whole, then "done"; or
    ``no_reply``: none was stored and none is being written (why, the relay no longer says)."""
    after = [start.next(), start.next().next()]
    if reply is None:
        missing = {"code": "no_reply", "detail": str(services.error_text("no_reply"))}
        return [_event("error", missing, after[0].event_id)]
    done: dict[str, object] = {"assistant_message_id": reply.pk, "model": reply.model}
    if reply.stopped:
        done["stopped"] = True
    return [
        _event("delta", {"content": reply.content}, after[0].event_id),
        _event("done", done, after[1].event_id),
    ]


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
