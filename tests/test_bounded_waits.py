"""Bounded waits (issue 16, point 4): on the request path every statement and every lock wait has
a bound, so a stalled database or a locked table answers 503 within seconds (``/healthz`` too,
with its own shorter bounds); a remember said while memory is locked gets its reply at once and
is read later, never lost; after a worker dies, its passes are sent again within two minutes,
and a live pass, however long, is never run twice.

The stalls are real: locks taken by another connection (what a migration takes), and a server
that accepts connections and never answers. Each request runs beside the test with a generous
bound only so that a regression fails the test instead of hanging the suite: what is asserted
is that it finished while the stall still held, never how fast.
"""

from __future__ import annotations

import copy
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

import pytest
import redis
from django.conf import settings
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from chat.models import Message
from config.database import STALL_SECONDS, session_options, stall_seconds
from memory import scheduling
from memory.engine import passes
from memory.models import Memory
from memory.queueing import sweep_owed_passes
from memory.services import get_memory
from tests.memory.engine.test_broker import stalled_server
from tests.memory.helpers import answer, conversation_with, later, memory_with
from tests.test_outages import assert_unavailable

pytestmark = pytest.mark.django_db(transaction=True)

# Only so that a regression fails instead of hanging: never what is measured.
HANG = 60


@pytest.fixture
def empty_queue() -> None:
    redis.Redis.from_url(settings.REDIS_URL).delete("memory")


@contextmanager
def held(sql: str, params: list[Any] | None = None) -> Iterator[None]:
    """A lock taken by another connection, held until the block ends."""
    locked, release = threading.Event(), threading.Event()

    def hold() -> None:
        try:
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(sql, params or [])
                locked.set()
                release.wait(HANG * 2)
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    assert locked.wait(10)
    try:
        yield
    finally:
        release.set()
        thread.join()


def finished(action: Callable[[], Any]) -> Any:
    """``action``'s result, run beside the test: it must finish while the stall still holds."""
    result: list[Any] = []

    def run() -> None:
        try:
            result.append(action())
        except Exception as exc:  # noqa: BLE001 - handed to the test
            result.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(HANG)
    assert not thread.is_alive(), "still waiting on the stalled database"
    if isinstance(result[0], Exception):
        raise result[0]
    return result[0]


@contextmanager
def database_stalled() -> Iterator[None]:
    """Every new connection reaches a server that accepts it and never answers (a frozen
    PostgreSQL, a black-holed proxy)."""
    settings_dict = connection.settings_dict
    saved = {key: settings_dict.get(key) for key in ("HOST", "PORT")}
    with stalled_server() as (port, _):
        connection.close()
        settings_dict.update(HOST="127.0.0.1", PORT=str(port))
        try:
            yield
        finally:
            connection.close()
            settings_dict.update(saved)


# --- Stalls answer 503 within seconds -----------------------------------------------------------


def test_a_table_locked_by_a_migration_answers_503_while_it_is_locked(api, account) -> None:
    web = Client()
    web.force_login(account)
    with held("LOCK TABLE chat_conversation IN ACCESS EXCLUSIVE MODE"):
        listed = finished(lambda: api.get("/api/v1/conversations"))
        page = finished(lambda: web.get(reverse("chat:projects")))
    assert_unavailable(listed)
    assert page.status_code == 503
    assert api.get("/api/v1/conversations").status_code == 200  # and back once it is released


def test_a_database_that_never_answers_is_503_within_seconds_healthz_too(api) -> None:
    with database_stalled():
        listed = finished(lambda: api.get("/api/v1/conversations"))
        health = finished(lambda: Client().get("/healthz"))
    assert_unavailable(listed)
    assert health.status_code == 503
    assert health.json()["database"] == "down"
    assert Client().get("/healthz").json()["database"] == "ok"


class FreezableProxy:
    """A TCP proxy to PostgreSQL that can stop forwarding while its connections stay open: what
    is sent is taken and nothing comes back, as from a frozen server (a stopped process, a
    stalled disk), where no TCP timeout fires."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.frozen, self.stopped = threading.Event(), threading.Event()
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(8)
        self.port = self.server.getsockname()[1]
        self.sockets: list[socket.socket] = []
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        self.server.settimeout(0.1)
        while not self.stopped.is_set():
            try:
                client, _ = self.server.accept()
            except OSError:
                continue
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                thread = threading.Thread(target=self._pump, args=(source, sink), daemon=True)
                thread.start()
                self.threads.append(thread)

    def _pump(self, source: socket.socket, sink: socket.socket) -> None:
        source.settimeout(0.1)
        while not self.stopped.is_set():
            if self.frozen.is_set():
                self.stopped.wait(0.05)
                continue
            try:
                data = source.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                return
            if not data:
                return
            try:
                sink.sendall(data)
            except OSError:
                return

    def close(self) -> None:
        self.stopped.set()
        for thread in self.threads:
            thread.join()
        for sock in [*self.sockets, self.server]:
            sock.close()


@contextmanager
def through_a_proxy() -> Iterator[FreezableProxy]:
    """Every connection goes through a freezable proxy, and is kept between requests as in
    production (``CONN_MAX_AGE``, checked before reuse)."""
    settings_dict = connection.settings_dict
    # A frozen server is cut by our own bound: it must be a request's, well within HANG (a
    # worker started in this process gives it a worker's, past HANG: tests/conftest.py).
    bound = stall_seconds(
        settings.DATABASE_REQUEST_STATEMENT_TIMEOUT_MS, settings.DATABASE_REQUEST_LOCK_TIMEOUT_MS
    )
    assert bound is not None and settings_dict[STALL_SECONDS] == bound < HANG / 2
    saved = {key: settings_dict.get(key) for key in ("HOST", "PORT", "CONN_MAX_AGE")}
    proxy = FreezableProxy((saved["HOST"] or "127.0.0.1", int(saved["PORT"] or 5432)))
    connection.close()
    settings_dict.update(HOST="127.0.0.1", PORT=str(proxy.port), CONN_MAX_AGE=60)
    try:
        yield proxy
    finally:
        connection.close()
        settings_dict.update(saved)
        proxy.close()


def test_a_server_that_freezes_under_an_open_connection_answers_503_within_seconds(api) -> None:
    with through_a_proxy() as proxy:

        def two_requests() -> tuple[Any, Any]:
            first = api.get("/api/v1/conversations")  # opens a connection, kept for the next
            proxy.frozen.set()
            # The same thread, so the same open connection: its check before reuse, and any
            # query, would wait for ever on a frozen server.
            return first, api.get("/api/v1/conversations")

        first, second = finished(two_requests)
    assert first.status_code == 200
    assert_unavailable(second)


def bounds_of_a_new_connection() -> tuple[str, str]:
    connection.close()
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
        )
        return cursor.fetchone()


def test_web_requests_and_workers_have_their_own_bounds(db) -> None:
    from config.database import bound_waits_for_requests, bound_waits_for_workers

    settings_dict = connection.settings_dict
    saved = {key: copy.deepcopy(settings_dict.get(key)) for key in ("OPTIONS", STALL_SECONDS)}
    try:
        bound_waits_for_requests()  # what config/wsgi.py does for every web process
        assert bounds_of_a_new_connection() == ("5s", "2s")
        assert settings_dict[STALL_SECONDS] == 7
        bound_waits_for_workers()  # what a Celery worker does as it starts
        assert bounds_of_a_new_connection() == ("1min", "10s")
        assert settings_dict[STALL_SECONDS] == 62
    finally:
        settings_dict.update(saved)  # our own bound too, not only the server's
        connection.close()


def test_a_management_command_such_as_migrate_is_never_cut(db) -> None:
    script = (
        "import django; django.setup();"
        "from django.db import connection;"
        "c = connection.cursor();"
        "c.execute(\"SELECT current_setting('statement_timeout'),"
        " current_setting('lock_timeout')\");"
        "print(*c.fetchone())"
    )
    db = connection.settings_dict
    env = {
        **os.environ,
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "SECRET_KEY": "test",
        "ALLOWED_HOSTS": "localhost",
    }
    run = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["0", "0"]


def test_creating_and_dropping_a_database_is_never_cut_by_a_request_bound(db) -> None:
    """What creates and drops the test database (a connection to the maintenance database) is
    management work, unbounded beside a request's bound of 1 ms that no CREATE or DROP DATABASE
    meets. A DROP DATABASE waits for the last connections to close: under the 5 s bound, a run
    on a busy machine failed to drop its test database."""
    bounded = type(connections["default"])(
        {
            **connection.settings_dict,
            "OPTIONS": {"options": session_options(statement_ms=1, lock_ms=1)},
            STALL_SECONDS: stall_seconds(1, 1),
        }
    )
    name = connection.ops.quote_name(f"{connection.settings_dict['NAME']}_bounds")
    with bounded._nodb_cursor() as cursor:
        cursor.execute(
            "SELECT current_setting('statement_timeout'), current_setting('lock_timeout')"
        )
        assert cursor.fetchone() == ("0", "0")
        assert cursor.db.settings_dict[STALL_SECONDS] is None
        cursor.execute(f"CREATE DATABASE {name}")
        cursor.execute(f"DROP DATABASE {name}")
    # Its own connection keeps the request's bound.
    assert bounded.settings_dict["OPTIONS"]["options"] == session_options(statement_ms=1, lock_ms=1)


# --- A remember said while memory is locked -----------------------------------------------------


MEMORY_LOCKS = {
    # What a migration of the memory table takes: not even a read gets through.
    "table": ("LOCK TABLE memory_memory IN ACCESS EXCLUSIVE MODE", False),
    # A long transaction on the person's memory row: the read gets through, owing a pass waits.
    "row": ("SELECT id FROM memory_memory WHERE owner_id = %s FOR UPDATE", True),
}


@pytest.mark.parametrize("lock", MEMORY_LOCKS, ids=MEMORY_LOCKS)
def test_a_remember_said_while_memory_is_locked_gets_its_reply_and_is_read_later(
    api, account, memory_model, lock, empty_queue, settings
) -> None:
    settings.CHAT_MODEL_TIMEOUT = HANG  # what is measured is not the model
    memory = get_memory(owner_id=account.pk)
    # The chat model's reply, then the memory model's answer to the pass.
    memory_model.answer("Nice to meet you, Anna.", answer("Name is Anna"))
    chat = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    url = f"/api/v1/conversations/{chat.json()['id']}/messages"
    sql, for_owner = MEMORY_LOCKS[lock]

    with held(sql, [account.pk] if for_owner else None):
        sent = finished(
            lambda: api.post(url, {"content": "My name is Anna, remember that"}, format="json")
        )

    assert sent.status_code == 201
    assert sent.json()["assistant_message"] is not None  # the reply, as if nothing was locked
    said = Message.objects.get(pk=sent.json()["user_message"]["id"])
    assert said.memory_state == Message.MemoryState.PENDING  # not lost, not read yet

    sweep_owed_passes()  # memory answers again: the sweeper tells it
    memory.refresh_from_db()
    assert memory.pass_requested
    assert passes.run_pass(memory_id=memory.pk).outcome == "ok"
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna"]


def test_a_pending_turn_said_with_memory_off_is_never_read(api, account, memory_model) -> None:
    from memory.services import set_enabled

    memory = get_memory(owner_id=account.pk)
    set_enabled(owner_id=account.pk, enabled=False)
    memory_model.answer("Nice to meet you, Anna.")
    chat = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    url = f"/api/v1/conversations/{chat.json()['id']}/messages"
    with held(MEMORY_LOCKS["table"][0]):
        finished(
            lambda: api.post(url, {"content": "My name is Anna, remember that"}, format="json")
        )

    set_enabled(owner_id=account.pk, enabled=True)  # settles it as memory was: off
    sweep_owed_passes()

    assert set(Message.objects.values_list("memory_state", flat=True)) == {
        Message.MemoryState.SKIPPED
    }
    assert passes.run_pass(memory_id=memory.pk).outcome == "not_owed"


def test_a_turn_said_before_a_clear_and_stored_after_it_is_never_read(api, account) -> None:
    """The clear holds the memory row; an exchange said meanwhile, whose trigger could not take
    the row, is pending and commits after the clear (which could not see it to skip it): it
    was said before the clear, so it is never read."""
    from memory.services import clear_memory

    memory = get_memory(owner_id=account.pk)
    chat = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json")
    said_at = timezone.now()
    clear_memory(owner_id=account.pk)
    message = Message.objects.create(
        conversation_id=chat.json()["id"],
        role=Message.Role.USER,
        content="My name is Anna, remember that",
        memory_state=Message.MemoryState.PENDING,
    )
    Message.objects.filter(pk=message.pk).update(created_at=said_at)  # said before the clear

    sweep_owed_passes()

    message.refresh_from_db()
    assert message.memory_state == Message.MemoryState.SKIPPED
    assert passes.run_pass(memory_id=memory.pk).outcome == "not_owed"


# --- A worker that dies -------------------------------------------------------------------------


SWEEP_SECONDS = settings.CELERY_BEAT_SCHEDULE["memory-sweep-owed-passes"]["schedule"]


def test_a_pass_whose_worker_died_is_sent_again_within_two_minutes(account, empty_queue) -> None:
    memory = get_memory(owner_id=account.pk)
    Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
    assert scheduling.claim(memory.pk) is not None  # the worker took it, then was SIGKILLed
    assert sweep_owed_passes() == 0

    # No heartbeat renews its lease: by the last sweep within two minutes it is sent again.
    later(memory, seconds=120 - SWEEP_SECONDS)
    assert sweep_owed_passes() == 1


def wait_until(condition: Callable[[], bool]) -> None:
    deadline = time.monotonic() + HANG
    while not condition():
        assert time.monotonic() < deadline, "the condition never held"
        time.sleep(0.05)


def test_a_live_pass_renews_its_lease_so_it_is_never_run_twice(
    account, memory_model, settings, empty_queue
) -> None:
    settings.MEMORY_PASS_LEASE_SECONDS = 1
    settings.MEMORY_MODEL_TIMEOUT = HANG
    conversation_with(account, "My name is Anna", "Hello Anna")
    memory = memory_with(account)
    seen: dict[str, Any] = {}

    def slow_model(messages: list[dict[str, Any]]) -> str:
        try:
            first = Memory.objects.get(pk=memory.pk).lease_until
            # The model takes longer than a lease: past the end of the lease first taken ...
            wait_until(lambda: timezone.now() > first + timedelta(seconds=0.5))
            # ... the pass holds it still, renewed, so nothing sends or runs it a second time.
            wait_until(lambda: Memory.objects.get(pk=memory.pk).lease_until > timezone.now())
            seen["sent"] = sweep_owed_passes()
            seen["second"] = passes.run_pass(memory_id=memory.pk).outcome
        finally:
            connection.close()  # this is the model call's thread
        return answer("Name is Anna")(messages)

    memory_model.answer(slow_model)
    assert passes.run_pass(memory_id=memory.pk).outcome == "ok"

    assert seen == {"sent": 0, "second": "not_owed"}
    memory.refresh_from_db()
    assert memory.lines == ["Name is Anna"]
    assert memory.lease_until is None  # released with its last token
