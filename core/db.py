"""Row locks in one order, and one bounded retry of a transaction rolled back by a deadlock.

Use-cases lock only what they need, in this order (``docs/ARCHITECTURE.md``, "Locks, in one
order"): projects, conversations, the person, the memory row, then what sits under it
(messages, voice sessions, versions, tombstones); rows of one table in id order. So they wait,
never deadlock. A deadlock that happens anyway (an implicit lock by a foreign key or cascade)
is rerun a bounded number of times, then answers 409 ``busy``, never 503.
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import Any, Final, ParamSpec, TypeVar

from django.db import DatabaseError, OperationalError, connection
from django.db.models import QuerySet

log = logging.getLogger(__name__)

# deadlock_detected, serialization_failure: PostgreSQL rolled the transaction back on purpose.
LOCK_CONFLICT_STATES: Final = frozenset({"40P01", "40001"})
LOCK_CONFLICT_ATTEMPTS: Final = 3
LOCK_CONFLICT_PAUSE_SECONDS: Final = 0.05  # at most, before the second attempt (0.1 s the third)

P = ParamSpec("P")
R = TypeVar("R")


def is_lock_conflict(error: BaseException) -> bool:
    """The database rolled back to break a deadlock or serialization failure: only bad timing."""
    if not isinstance(error, DatabaseError):
        return False
    # Django wraps the driver's error; psycopg's carries the SQLSTATE.
    cause = error.__cause__ if error.__cause__ is not None else error
    return getattr(cause, "sqlstate", None) in LOCK_CONFLICT_STATES


def retry_on_lock_conflict(use_case: Callable[P, R]) -> Callable[P, R]:
    """Rerun ``use_case`` after a deadlock rollback, up to ``LOCK_CONFLICT_ATTEMPTS`` in all.
    Inside a caller's transaction it runs once: only the caller can rerun its work."""

    @functools.wraps(use_case)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        if connection.in_atomic_block:
            return use_case(*args, **kwargs)
        for attempt in range(1, LOCK_CONFLICT_ATTEMPTS + 1):
            try:
                return use_case(*args, **kwargs)
            except OperationalError as error:
                if attempt == LOCK_CONFLICT_ATTEMPTS or not is_lock_conflict(error):
                    raise
                log.info("db.lock_conflict use_case=%s attempt=%s", use_case.__name__, attempt)
                # A pause lets the winner commit; at once, the loser may deadlock again.
                time.sleep(random.uniform(0, LOCK_CONFLICT_PAUSE_SECONDS * attempt))
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    return run


def lock(rows: QuerySet[Any, Any], *, no_key: bool = False) -> list[int]:
    """Lock ``rows`` in id order until the transaction ends; their ids. ``no_key``: ``FOR NO
    KEY UPDATE``, so referencing rows can still be written."""
    locked = rows.select_for_update(no_key=no_key).order_by("pk")
    return list(locked.values_list("pk", flat=True))
