"""The worker's heartbeat: a cache key a live Celery worker keeps fresh, read by ``/healthz``.

It expires after ``WORKER_HEARTBEAT_SECONDS`` × 3, so a killed worker shows as down within
that; one that stops cleanly deletes it.
"""

from __future__ import annotations

import logging
import os
import socket
from typing import Any

import redis
from celery import bootsteps
from django.conf import settings
from django.core.cache import caches

log = logging.getLogger(__name__)

KEY = "worker-heartbeat"


def _stale_after() -> int:
    return settings.WORKER_HEARTBEAT_SECONDS * 3


def beat(worker: str) -> None:
    """Note that ``worker`` is alive (never raises: a cache hiccup only makes it look late)."""
    try:
        caches["default"].set(KEY, worker, timeout=_stale_after())
    except (OSError, redis.RedisError):
        log.warning("worker.heartbeat_failed")


def stop(worker: str) -> None:
    """A worker stopping cleanly: down at once, unless another worker has beaten since."""
    try:
        cache = caches["default"]
        if cache.get(KEY) == worker:
            cache.delete(KEY)
    except (OSError, redis.RedisError):
        log.warning("worker.heartbeat_failed")


def worker_alive() -> bool:
    """Whether some worker beat within the last ``WORKER_HEARTBEAT_SECONDS`` × 3."""
    try:
        return caches["default"].get(KEY) is not None
    except (OSError, redis.RedisError):
        return False


class Heartbeat(bootsteps.StartStopStep):
    """Beats on the worker's event-loop timer, so a stuck loop stops beating."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.worker = f"{socket.gethostname()}:{os.getpid()}"
        self.timer_entry: Any = None

    def start(self, parent: Any) -> None:
        beat(self.worker)
        self.timer_entry = parent.timer.call_repeatedly(
            settings.WORKER_HEARTBEAT_SECONDS, beat, (self.worker,)
        )

    def stop(self, parent: Any) -> None:
        if self.timer_entry is not None:
            self.timer_entry.cancel()
            self.timer_entry = None
        stop(self.worker)

    def shutdown(self, parent: Any) -> None:
        self.stop(parent)
