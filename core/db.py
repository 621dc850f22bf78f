"""Row locks in one order, and the one bounded retry of a transaction the database rolled back
to break a deadlock or a serialization failure.

Every use-case that locks several of a person's rows takes them in this order, and only the
ones it needs (``docs/ARCHITECTURE.md``, "Locks, in one order"): the person's projects, their
conversations, the person, their memory row, then what sits under the memory (messages and
voice sessions a pass marks read, versions, tombstones). Within one table, rows are locked in
id order. Two use-cases that follow it wait for each other and never deadlock; a deadlock or a
serialization failure that happens anyway (a lock taken implicitly, by a foreign key check or
a cascade) is a lost moment, not an outage: the transaction is run again, a bounded number of
times, and a conflict that outlasts them answers 409 ``busy`` (``core.api``), never 503.
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
    """The database broke a deadlock or a serialization failure by rolling the transaction
    back: nothing is down and nothing was asked wrong, only the moment was bad."""
    if not isinstance(error, DatabaseError):
        return False
    # Django wraps the driver's error; psycopg's carries the SQLSTATE.
    cause = error.__cause__ if error.__cause__ is not None else error
    return getattr(cause, "sqlstate", None) in LOCK_CONFLICT_STATES


def retry_on_lock_conflict(use_case: Callable[P, R]) -> Callable[P, R]:
    """Run ``use_case`` (which opens its own transactions) again when the database rolled it
    back to break a deadlock or a serialization failure, up to ``LOCK_CONFLICT_ATTEMPTS`` in
    all. Inside a caller's transaction it runs once: the caller's work was rolled back with it,
    so only the caller can run it again."""

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
                # A moment for the winner to commit: run again at once, the loser may grab a
                # lock the winner still waits for and meet it in the same deadlock again.
                time.sleep(random.uniform(0, LOCK_CONFLICT_PAUSE_SECONDS * attempt))
        raise AssertionError("unreachable")  # pragma: no cover - the loop returns or raises

    return run


def lock(rows: QuerySet[Any, Any], *, no_key: bool = False) -> list[int]:
    """Lock ``rows`` until the caller's transaction ends, in id order, and return their ids.
    ``no_key``: a lock that lets rows referencing them still be written (``FOR NO KEY
    UPDATE``), for a caller that changes the rows but keeps them."""
    locked = rows.select_for_update(no_key=no_key).order_by("pk")
    return list(locked.values_list("pk", flat=True))
