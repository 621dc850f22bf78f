"""Stopping a streamed reply from another request: "Stop", a regenerate or an edit.

A stop is a time per conversation in the shared cache (ids and times only). A stream looks at
most every ``CHAT_STOP_CHECK_SECONDS``; a newer mark ends it, keeping what arrived. An
unreachable cache stops nothing (logged).
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
        """Whether a stop came since the stream started."""
        now = time.monotonic()
        if now < self._next_look or self._started_with < 0:
            return False
        self._next_look = now + self._every
        mark = _mark(self._conversation_id)
        if mark < 0:
            self._started_with = -1  # a cache that fails is not asked again by this stream
            return False
        return mark != self._started_with
