"""Stopping a streamed reply from another request: the person's "Stop", and a regenerate or an
edit that makes a reply on its way pointless.

A stop is a mark in the shared cache (Redis in production, the file cache embedded: every web
process sees it), one per conversation: the time of the latest stop. A stream notes the mark as
it starts and looks again, at most every ``CHAT_STOP_CHECK_SECONDS``, between the model's deltas; a
mark newer than the one it started with ends it there, and what had arrived is kept as the
reply, marked as stopped (``chat.services``). The cache holds ids and times only. A cache that
cannot be reached stops nothing (logged): the reply then streams to its end, as it would have.
"""

from __future__ import annotations

import logging
import time
from typing import Final

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# A mark outlives any stream (a reply is bounded by the model's timeout).
_KEPT_FOR: Final = 60 * 60


def _key(conversation_id: int) -> str:
    return f"chat:stop:{conversation_id}"


def _mark(conversation_id: int) -> int:
    try:
        return int(cache.get(_key(conversation_id), 0))
    except (RedisError, OSError, ValueError, TypeError):  # an unreachable cache stops nothing
        log.warning("chat.stop_unreadable conversation=%s", conversation_id)
        return -1


def request_stop(conversation_id: int) -> None:
    """Stop every reply of the conversation streaming now (and none that starts later)."""
    try:
        cache.set(_key(conversation_id), time.time_ns(), _KEPT_FOR)
    except (RedisError, OSError):
        log.warning("chat.stop_not_sent conversation=%s", conversation_id)


class Watch:
    """A stream's view of the stops of its conversation since it started."""

    def __init__(self, conversation_id: int) -> None:
        self._conversation_id = conversation_id
        self._started_with = _mark(conversation_id)
        self._every = settings.CHAT_STOP_CHECK_SECONDS
        self._next_look = time.monotonic() + self._every

    def stopped(self) -> bool:
        """Whether a stop came since the stream started (looked up at most every
        ``CHAT_STOP_CHECK_SECONDS``)."""
        now = time.monotonic()
        if now < self._next_look or self._started_with < 0:
            return False
        self._next_look = now + self._every
        mark = _mark(self._conversation_id)
        if mark < 0:
            self._started_with = -1  # a cache that fails is not asked again by this stream
            return False
        return mark != self._started_with
