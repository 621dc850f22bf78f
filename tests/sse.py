"""Server-sent events as a client reads them (WHATWG HTML §9.2): ids, names, data; comments
(keep-alives) skipped."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict[str, Any]
    id: str | None


def parse(chunks: Iterable[bytes | str]) -> Iterator[Event]:
    """The events in a stream's chunks, each as soon as its blank line arrives."""
    buffer = ""
    for chunk in chunks:
        buffer += chunk if isinstance(chunk, str) else chunk.decode()
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            fields: dict[str, str] = {}
            for line in block.splitlines():
                if line.startswith(":"):
                    continue  # a comment: a keep-alive
                name, _, value = line.partition(": ")
                fields[name] = value
            if "data" in fields:
                yield Event(
                    fields.get("event", "message"), json.loads(fields["data"]), fields.get("id")
                )


def pairs(chunks: Iterable[bytes | str]) -> list[tuple[str, dict[str, Any]]]:
    return [(event.kind, event.data) for event in parse(chunks)]


def send(api: Any, conversation: int, content: str, **headers: str) -> Any:
    """``POST conversations/{conversation}/messages`` asking for the reply as events."""
    return api.post(
        f"/api/v1/conversations/{conversation}/messages",
        {"content": content},
        format="json",
        HTTP_ACCEPT="text/event-stream",
        **headers,
    )
