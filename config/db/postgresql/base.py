"""Django's PostgreSQL backend, with every call to the server bounded on our side too.

The server's bounds (``config/database.py``) need a running server: a frozen one never answers
an open connection, and no TCP timeout fires. So each query, commit, rollback and ping runs
under ``StallGuard``: past its bound the guard shuts the socket, the call fails as a dropped
connection does (a 503 on a request), and the connection is replaced.
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

# The settings key of a database's bound, in seconds (None: unbounded).
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
                # Started on first use, so each forked child gets its own.
                self._thread = threading.Thread(target=self._watch, name="db-stall-guard")
                self._thread.daemon = True
                self._thread.start()
        try:
            yield
        finally:
            with self._lock:
                self._calls.pop(call, None)

    def after_fork(self) -> None:
        """In a forked child: no thread, no held lock, no call of the parent's."""
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
    """Shut the socket through a duplicate descriptor, leaving the connection's own to close."""
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

    # Django's commit and rollback hooks (missing from the stubs).
    def _commit(self) -> None:
        with self._bounded():
            super()._commit()  # type: ignore[misc]

    def _rollback(self) -> None:
        with self._bounded():
            super()._rollback()  # type: ignore[misc]
