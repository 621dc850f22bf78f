"""Helpers for races with real commits: actions on their own database connections, row locks
held until released, and the API calls the races are made of.

An interleaving is forced, never hoped for: a lock held by another connection (``Held``) makes
a request wait at a chosen point, and the test waits for conditions (``lock_waiters``), never
for a duration.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connection, transaction
from rest_framework.test import APIClient

from tests.memory.helpers import wait_for

PASSWORD = "a-long-passphrase-42"


def in_another_thread(action: Callable[[], object]) -> object:
    """Run ``action`` on its own database connection and wait for it: it commits while the
    caller is in the middle of something (a model call)."""
    result: list[object] = []

    def run():
        try:
            result.append(action())
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return result[0]


def at_once(*actions: Callable[[], object]) -> list[object]:
    """Start the actions together in threads (a barrier) and collect their results in order."""
    barrier = threading.Barrier(len(actions))
    results: list[object] = [None] * len(actions)

    def run(i, action):
        try:
            barrier.wait()
            results[i] = action()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, a)) for i, a in enumerate(actions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def in_background(action: Callable[[], object]) -> tuple[threading.Thread, list[object]]:
    """Start ``action`` on its own connection; its result (or the exception it raised, the
    outcome under test) lands in the list once the thread is joined."""
    result: list[object] = []

    def run():
        try:
            result.append(action())
        except Exception as exc:  # noqa: BLE001 - the outcome under test, reported as such
            result.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, result


def lock_waiters() -> int:
    """How many sessions of this database are waiting for a lock right now."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0]


def wait_until(condition: Callable[[], bool]) -> None:
    assert wait_for(condition, seconds=20)


class Held:
    """A row lock held by another connection until ``release()``: it makes a race happen in
    one chosen order, waiting for conditions, never for a duration."""

    def __init__(self, lock: Callable[[], object]) -> None:
        self.locked, self.released = threading.Event(), threading.Event()

        def hold():
            try:
                with transaction.atomic():
                    lock()
                    self.locked.set()
                    self.released.wait(30)
            finally:
                connection.close()

        self.thread = threading.Thread(target=hold)
        self.thread.start()
        assert self.locked.wait(10)

    def release(self) -> None:
        self.released.set()
        self.thread.join()


def guest() -> APIClient:
    client = APIClient()
    client.credentials(
        HTTP_AUTHORIZATION=f"Token {client.post('/api/v1/auth/guest').json()['token']}"
    )
    return client


def chat_with(client: APIClient, model: str = "scripted/chat-a", **fields: object) -> int:
    body = {"model": model, **fields}
    return client.post("/api/v1/conversations", body, format="json").json()["id"]


def send(client: APIClient, conversation_id: int, text: str, **headers: str):
    return client.post(
        f"/api/v1/conversations/{conversation_id}/messages",
        {"content": text},
        format="json",
        **headers,
    )


def signup(client: APIClient, email: str = "anna@example.com"):
    return client.post("/api/v1/auth/signup", {"email": email, "password": PASSWORD}, format="json")


def is_json_answer(response, *allowed: int) -> bool:
    if response.status_code not in allowed:
        return False
    if response.status_code >= 400:
        return "code" in response.json()
    return True
