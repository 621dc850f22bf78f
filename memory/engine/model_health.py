"""Whether ``MEMORY_MODEL`` answers: a shared-cache state every worker's passes keep, reported
by ``/healthz``, with operator events on failing and recovering (the kind, never content).

Only the model's own failures count, not refused work. The first failing pass sets it
(``cache.add``: one worker tells), the first answer clears it (``cache.delete``). It lapses
silently an hour after the last failure if nothing tries again.
"""

from __future__ import annotations

import logging
import time
from datetime import UTC, datetime
from typing import Any

import redis
from django.conf import settings
from django.core.cache import caches

from core.logs import event

log = logging.getLogger(__name__)

KEY = "memory-model-failing"
# A failing model is retried within the backoff cap (minutes): older state means no one tried.
STALE_AFTER_SECONDS = 3600
# What the cache may raise when it is away (Redis in production, files embedded).
_CACHE_ERRORS = (OSError, redis.RedisError)


def failed(kind: str) -> None:
    """A pass found the memory model failing (``kind``: ``auth``, ``unavailable``…)."""
    now = time.time()
    try:
        cache = caches["default"]
        state = {"kind": kind, "since": now, "last": now}
        if cache.add(KEY, state, timeout=STALE_AFTER_SECONDS):
            event(
                log,
                "memory.model_failing",
                logging.ERROR,
                kind=kind,
                model=settings.MEMORY_MODEL,
            )
            return
        since = (cache.get(KEY) or state)["since"]
        cache.set(KEY, {**state, "since": since}, timeout=STALE_AFTER_SECONDS)
    except _CACHE_ERRORS:
        log.warning("memory.model_health_unrecorded")


def succeeded() -> None:
    """A pass got an answer from the memory model (one cache read when all is well)."""
    try:
        cache = caches["default"]
        state = cache.get(KEY)
        if state is None or not cache.delete(KEY):
            return
    except _CACHE_ERRORS:
        log.warning("memory.model_health_unrecorded")
        return
    event(
        log,
        "memory.model_recovered",
        kind=state["kind"],
        failing_for_s=int(time.time() - state["since"]),
        model=settings.MEMORY_MODEL,
    )


def report() -> dict[str, Any]:
    """``/healthz``'s memory-model fields: ``ok``, or ``failing`` with kind and times
    (``unknown`` when the cache is away)."""
    try:
        state = caches["default"].get(KEY)
    except _CACHE_ERRORS:
        return {"memory_model": "unknown"}
    if state is None:
        return {"memory_model": "ok"}
    return {
        "memory_model": "failing",
        "memory_model_error": state["kind"],
        "memory_model_failing_since": _iso(state["since"]),
        "memory_model_last_failure": _iso(state["last"]),
    }


def _iso(stamp: float) -> str:
    return datetime.fromtimestamp(stamp, tz=UTC).isoformat(timespec="seconds")
