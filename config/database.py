"""Bounded database waits (``DATABASE_*`` settings): how long one statement may run and one lock
may be waited for, per kind of process, set as PostgreSQL session options in the connection's
startup message (no round trip of their own).

- **Web requests** (``config/wsgi.py``): a few seconds. A stalled or locked table answers 503
  ``unavailable`` within that bound instead of holding the request (and its thread) for as
  long as the stall lasts.
- **Celery workers** (``config/celery.py``): longer bounds; a pass or a housekeeping task that
  meets a long lock fails, and is retried, instead of hanging until its hard time limit.
- **Management commands** (``migrate`` above all): none, so a migration is never killed half
  way; ``connect_timeout`` still bounds every connection (``config/settings.py``).

A frozen server applies no bound of its own, so with them comes one on our side
(``config.db.postgresql``): a call still unanswered a grace after the statement bound has its
connection cut.
"""

from __future__ import annotations

from django.conf import settings
from django.db import connections

from config.db.postgresql.base import STALL_SECONDS

# How long past its statement bound a call may still wait before the connection is cut: room
# for the server to answer the cancel, and for a commit.
STALL_GRACE_SECONDS = 2


def session_options(*, statement_ms: int, lock_ms: int) -> str:
    """libpq's ``options`` for these bounds (0: none)."""
    return f"-c statement_timeout={int(statement_ms)} -c lock_timeout={int(lock_ms)}"


def bound_waits(*, statement_ms: int, lock_ms: int) -> None:
    """Every PostgreSQL connection this process opens from now on has these bounds; one already
    open is closed, so the next query opens one that has them."""
    for alias in settings.DATABASES:
        wrapper = connections[alias]
        if wrapper.vendor != "postgresql":
            continue
        options = wrapper.settings_dict.setdefault("OPTIONS", {})
        options["options"] = session_options(statement_ms=statement_ms, lock_ms=lock_ms)
        wrapper.settings_dict[STALL_SECONDS] = stall_seconds(statement_ms, lock_ms)
        wrapper.close()


def stall_seconds(statement_ms: int, lock_ms: int) -> float | None:
    """The bound of one call on our side: the longer server bound and a grace (None: none)."""
    if not statement_ms:
        return None
    return max(statement_ms, lock_ms) / 1000 + STALL_GRACE_SECONDS


def bound_waits_for_requests() -> None:
    bound_waits(
        statement_ms=settings.DATABASE_REQUEST_STATEMENT_TIMEOUT_MS,
        lock_ms=settings.DATABASE_REQUEST_LOCK_TIMEOUT_MS,
    )


def bound_waits_for_workers() -> None:
    bound_waits(
        statement_ms=settings.DATABASE_WORKER_STATEMENT_TIMEOUT_MS,
        lock_ms=settings.DATABASE_WORKER_LOCK_TIMEOUT_MS,
    )
