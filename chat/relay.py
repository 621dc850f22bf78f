"""A streamed reply, relayed through Redis so a client that dropped can read the rest.

Each streamed reply is a *run*. Its events go into the Redis stream
``whizi:chat:reply:{conversation}:{question}:{run}`` and reach the client with the id
``{question}.{run}.{seq}``. A reconnect names that id and reads on from it; once the stream
has expired the stored reply is sent whole, after a "start". The stream holds the reply's
text and nothing of the person's, in a Redis that keeps nothing on disk, for ``KEPT_FOR``
seconds after its last event. Redis failing costs the resume, never the reply (logged).
"""

from __future__ import annotations

import functools
import json
import logging
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, cast

import redis
from django.conf import settings

log = logging.getLogger(__name__)

KEPT_FOR: Final = 5 * 60  # seconds after the last event: long enough for a phone to come back
TERMINAL: Final = frozenset({"done", "error"})
_ID_RE = re.compile(r"\A(\d{1,18})\.(\d{1,18})\.(\d{1,9})\Z")


class RelayUnavailable(Exception):
    """Redis could not be asked; the caller answers from what is stored."""


@dataclass(frozen=True)
class Position:
    """Where a client is in a run: after event ``seq`` (0: the "start")."""

    question: int
    run: int
    seq: int = 0

    @property
    def event_id(self) -> str:
        return f"{self.question}.{self.run}.{self.seq}"

    def next(self) -> Position:
        return Position(self.question, self.run, self.seq + 1)

    @classmethod
    def parse(cls, value: str | None) -> Position | None:
        """A ``Last-Event-ID`` as sent back; None for anything that is not one of ours."""
        found = _ID_RE.match((value or "").strip())
        if found is None:
            return None
        question, run, seq = (int(part) for part in found.groups())
        return cls(question, run, seq)


@functools.cache
def _client(block: bool = False) -> redis.Redis | None:
    if not settings.REDIS_URL:
        return None
    timeout = settings.CHAT_KEEP_ALIVE_SECONDS + 5 if block else 0.5
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=timeout, socket_connect_timeout=0.5
    )


def _stream(conversation_id: int, at: Position) -> str:
    # The question in the key: an id naming another question's run finds nothing.
    return f"whizi:chat:reply:{conversation_id}:{at.question}:{at.run}"


def _latest(conversation_id: int, question_id: int) -> str:
    return f"whizi:chat:reply:{conversation_id}:{question_id}"


class Relay:
    """The writing end: one per streamed reply. Never raises; a failed write ends relaying."""

    def __init__(self, conversation_id: int, question_id: int) -> None:
        self.conversation_id = conversation_id
        self.position = Position(question_id, time.time_ns() // 1000)
        self._client = _client()
        self._key = _stream(conversation_id, self.position)
        self._write(
            lambda r: r.set(_latest(conversation_id, question_id), self.position.run, ex=KEPT_FOR)
        )

    def publish(self, kind: str, data: dict[str, object]) -> str:
        """Keep the event for a reconnect; its id, to send with it."""
        at = self.position
        self.position = at.next()
        fields = {"kind": kind, "data": json.dumps(data, ensure_ascii=False, default=str)}
        entry = f"0-{self.position.seq}"

        def write(r: redis.Redis) -> None:
            pipe = r.pipeline(transaction=False)
            pipe.xadd(self._key, fields, id=entry)  # type: ignore[arg-type]
            pipe.expire(self._key, KEPT_FOR)
            pipe.expire(_latest(self.conversation_id, at.question), KEPT_FOR)
            pipe.execute()

        self._write(write)
        return self.position.event_id

    def _write(self, action: object) -> None:
        if self._client is None:
            return
        try:
            action(self._client)  # type: ignore[operator]
        except (redis.RedisError, OSError):
            log.warning("chat.relay_write_failed conversation=%s", self.conversation_id)
            self._client = None  # the live client still gets every event


@dataclass(frozen=True)
class Relayed:
    """An event read back: its kind, data and id."""

    kind: str
    data: dict[str, object]
    event_id: str


def latest_run(conversation_id: int, question_id: int) -> int | None:
    """The newest run answering the question, while it is kept (from its very start)."""
    client = _client()
    if client is None:
        return None
    try:
        run = client.get(_latest(conversation_id, question_id))
    except (redis.RedisError, OSError) as error:
        raise RelayUnavailable from error
    return int(run) if run is not None else None


def kept(conversation_id: int, at: Position) -> bool:
    """Whether the run is kept: it has events, or it is the newest and none came yet (the
    model is still thinking)."""
    client = _client()
    if client is None:
        return False
    try:
        if client.exists(_stream(conversation_id, at)):
            return True
    except (redis.RedisError, OSError) as error:
        raise RelayUnavailable from error
    return latest_run(conversation_id, at.question) == at.run


def ended(conversation_id: int, at: Position) -> int | None:
    """The seq of the run's last event if it has ended ("done" or "error"), else None."""
    client = _client()
    if client is None:
        return None
    try:
        newest = client.xrevrange(_stream(conversation_id, at), count=1)
    except (redis.RedisError, OSError) as error:
        raise RelayUnavailable from error
    if not newest:
        return None
    entry_id, fields = cast(tuple[bytes, dict[bytes, bytes]], newest[0])
    return int(entry_id.decode().split("-")[1]) if fields[b"kind"].decode() in TERMINAL else None


def writing(conversation_id: int, question_id: int) -> bool:
    """Whether a reply to the question is being written now."""
    run = latest_run(conversation_id, question_id)
    if run is None:
        return False
    at = Position(question_id, run)
    return kept(conversation_id, at) and ended(conversation_id, at) is None


def read_on(conversation_id: int, after: Position, *, deadline: float) -> Iterator[Relayed | None]:
    """The run's events after ``after``, as they come, to its last; nothing when ``after`` is
    its last already. Ends quietly if the run expires or Redis goes (the caller checked
    ``kept`` first). A None is a keep-alive: ``CHAT_KEEP_ALIVE_SECONDS`` went by with nothing
    new."""
    client = _client(block=True)
    if client is None:
        return
    try:
        last_seq = ended(conversation_id, after)
    except RelayUnavailable:
        return
    if last_seq is not None and last_seq <= after.seq:
        return  # the app has the end already: never wait for events that will not come
    key = _stream(conversation_id, after)
    last = f"0-{after.seq}"
    while time.monotonic() < deadline:
        try:
            found = client.xread(
                {key: last}, block=int(settings.CHAT_KEEP_ALIVE_SECONDS * 1000), count=100
            )
        except (redis.RedisError, OSError):
            log.warning("chat.relay_read_failed conversation=%s", conversation_id)
            return
        if not found:
            try:
                if not kept(conversation_id, after):
                    return  # expired under us: nothing more will come
            except RelayUnavailable:
                return
            yield None
            continue
        entries = cast(list[tuple[bytes, dict[bytes, bytes]]], found[0][1])  # type: ignore[index]
        for entry_id, fields in entries:
            last = entry_id.decode()
            kind = fields[b"kind"].decode()
            data = json.loads(fields[b"data"])
            seq = int(last.split("-")[1])
            yield Relayed(kind, data, Position(after.question, after.run, seq).event_id)
            if kind in TERMINAL:
                return
