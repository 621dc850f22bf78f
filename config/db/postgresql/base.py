"""Django's PostgreSQL backend, with every call to the server bounded on our side too.

The server's own bounds (``statement_timeout``, ``lock_timeout``: ``config/database.py``) end a
statement that runs or waits too long, but only a server that still runs can apply them: one
that is frozen (a stopped process, a stalled disk, a proxy that stopped forwarding) never
answers a connection already open, and the kernel acknowledges what is sent to it, so no TCP
timeout fires either. So each call — a query, a commit or rollback, the ping that checks a
reused connection — runs under ``StallGuard``: past the process's bound plus a grace, the
guard shuts the connection's socket, the call fails at once with the error a dropped
connection gives (a 503 on the request path), and the connection is replaced.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from django.db.backends.base.base import NO_DB_ALIAS
from django.db.backends.postgresql import base

log = logging.getLogger(__name__)

# The key of a database's settings holding its bound, in seconds (None: unbounded).
STALL_SECONDS = "STALL_SECONDS"


class StallGuard:
    """One thread per process that shuts the socket of any call past its deadline."""

    def __init__(self, tick: float = 0.2) -> None:
        self.tick = tick
        self._lock = threading.Lock()
        self._calls: dict[object, tuple[float, int]] = {}
        self._thread: threading.Thread | None = None

    @contextmanager
    def bound(self, fileno: int | None, seconds: float | None) -> Iterator[None]:
        if fileno is None or not seconds:
            yield
            return
        call = object()
        with self._lock:
            self._calls[call] = (time.monotonic() + seconds, fileno)
            if self._thread is None or not self._thread.is_alive():
                # Started on first use, so a process that forks after loading (gunicorn's
                # preload, Celery's pool) gets its own.
                self._thread = threading.Thread(target=self._watch, name="db-stall-guard")
                self._thread.daemon = True
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._calls.pop(call, None)

    def after_fork(self) -> None:
        """In a forked child (gunicorn's workers, Celery's pool): no thread, no held lock, no
        call of the parent's."""
        self._lock = threading.Lock()
        self._calls = {}
        self._thread = None

    def _watch(self) -> None:
        while True:
            time.sleep(self.tick)
            now = time.monotonic()
            with self._lock:
                late = [c for c, (deadline, _) in self._calls.items() if deadline <= now]
                sockets = [self._calls.pop(c)[1] for c in late]
            for fileno in sockets:
                log.warning("db.call_cut (the database did not answer within its bound)")
                _shut(fileno)


def _shut(fileno: int) -> None:
    """Shut the connection's socket under the call waiting on it (a duplicate descriptor, so
    the connection's own stays for it to close)."""
    try:
        duplicate = socket.socket(fileno=os.dup(fileno))
    except OSError:
        return  # already closed
    try:
        duplicate.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        duplicate.close()


guard = StallGuard()
os.register_at_fork(after_in_child=guard.after_fork)


def unbounded(settings_dict: dict[str, Any]) -> dict[str, Any]:
    """The connection that creates and drops databases (Django's, to the maintenance database,
    for the test database) does a management command's work: no bound on the server or here.
    A DROP DATABASE waits up to 5 s for the last connections to close; under a request's 5 s
    bound, a busy machine's test run failed to drop its database."""
    options = {**settings_dict.get("OPTIONS", {})}
    options["options"] = "-c statement_timeout=0 -c lock_timeout=0"
    return {**settings_dict, "OPTIONS": options, STALL_SECONDS: None}


class DatabaseWrapper(base.DatabaseWrapper):
    def __init__(self, settings_dict: dict[str, Any], alias: str = "default") -> None:
        if alias == NO_DB_ALIAS:
            settings_dict = unbounded(settings_dict)
        super().__init__(settings_dict, alias)
        self.execute_wrappers.append(self._bounded_execute)

    @contextmanager
    def _bounded(self) -> Iterator[None]:
        try:
            fileno = self.connection.fileno() if self.connection is not None else None
        except psycopg.Error:
            fileno = None  # closed already: the call fails at once, with nothing to wait on
        with guard.bound(fileno, self.settings_dict.get(STALL_SECONDS)):
            yield

    def _bounded_execute(
        self, execute: Any, sql: Any, params: Any, many: bool, context: Any
    ) -> Any:
        with self._bounded():
            return execute(sql, params, many, context)

    def is_usable(self) -> bool:
        with self._bounded():
            return bool(super().is_usable())

    # Django's own hooks for the commit and rollback round trips (the stubs do not list them).
    def _commit(self) -> None:
        with self._bounded():
            super()._commit()  # type: ignore[misc]

    def _rollback(self) -> None:
        with self._bounded():
            super()._rollback()  # type: ignore[misc]
