"""Broker trouble never hangs a reply; owed passes are swept once the broker is back."""

import socket
import threading
from contextlib import contextmanager
from datetime import timedelta

import pytest
import redis
from django.conf import settings
from django.utils import timezone

from config.celery import app
from memory.models import Memory
from memory.queueing import broker_breaker, sweep_owed_passes

pytestmark = pytest.mark.django_db(transaction=True)


@contextmanager
def broker_at(url: str):
    saved = (app.conf.broker_url, app.conf.broker_write_url)
    app.conf.broker_url = app.conf.broker_write_url = url
    app._pool = None
    app.amqp._producer_pool = None
    try:
        yield
    finally:
        app.conf.broker_url, app.conf.broker_write_url = saved
        app._pool = None
        app.amqp._producer_pool = None


@contextmanager
def stalled_server():
    """A TCP server that accepts connections and never answers: a stalled Redis."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held = []
    stop = threading.Event()

    def accept():
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1], held
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


def queued_passes() -> int:
    return redis.Redis.from_url(settings.REDIS_URL).llen("memory")


def remember(api):
    c = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()
    return api.post(
        f"/api/v1/conversations/{c['id']}/messages",
        {"content": "Remember that I love jazz"},
        format="json",
    )


@pytest.fixture
def empty_queue():
    redis.Redis.from_url(settings.REDIS_URL).delete("memory")


def test_a_refusing_broker_still_gives_the_reply_and_owes_the_pass(
    api, account, scripted, empty_queue
):
    scripted.answer("Noted!")
    with broker_at("redis://127.0.0.1:1/0"):
        response = remember(api)
    assert response.status_code == 201
    assert response.json()["assistant_message"]["content"] == "Noted!"
    assert Memory.objects.get(owner=account).pass_requested
    assert queued_passes() == 0


def test_a_stalled_broker_still_gives_the_reply_and_owes_the_pass(
    api, account, scripted, empty_queue
):
    scripted.answer("Noted!")
    with stalled_server() as (port, _), broker_at(f"redis://127.0.0.1:{port}/0"):
        response = remember(api)
    assert response.status_code == 201
    assert Memory.objects.get(owner=account).pass_requested


def test_after_one_broker_failure_replies_stop_waiting_on_it(api, account, scripted, empty_queue):
    with stalled_server() as (port, connections), broker_at(f"redis://127.0.0.1:{port}/0"):
        remember(api)
        tried = len(connections)
        Memory.objects.update(pass_requested=False)
        second = remember(api)
        assert len(connections) == tried  # the breaker is open: no new wait on the broker
    assert tried >= 1
    assert second.status_code == 201
    assert Memory.objects.get(owner=account).pass_requested  # owed all the same


def test_the_sweeper_enqueues_owed_passes_once_the_broker_is_back(
    api, account, scripted, empty_queue
):
    with broker_at("redis://127.0.0.1:1/0"):
        remember(api)
        assert sweep_owed_passes() == 0  # not yet owed long enough, and the broker is away
        Memory.objects.update(pass_requested_at=timezone.now() - timedelta(minutes=5))
        assert sweep_owed_passes() == 0
    broker_breaker.reset()  # the breaker's pause is over (30 s later)
    assert sweep_owed_passes() == 1
    assert queued_passes() == 1


def test_a_reply_enqueues_its_pass_after_commit(api, account, scripted, empty_queue):
    remember(api)
    assert queued_passes() == 1
    assert Memory.objects.get(owner=account).pass_requested


def test_a_task_message_carries_only_the_memory_id(api, account, scripted, empty_queue):
    import base64
    import json

    remember(api)
    raw = redis.Redis.from_url(settings.REDIS_URL).lindex("memory", 0)
    assert b"jazz" not in raw
    envelope = json.loads(raw)
    args, kwargs, _ = json.loads(base64.b64decode(envelope["body"]))
    assert args == [Memory.objects.get(owner=account).pk]
    assert kwargs == {}


def test_a_pass_goes_to_the_broker_only_after_the_reply_is_sent(
    api, account, scripted, empty_queue
):
    scripted.answer("Noted!")
    c = api.post("/api/v1/conversations", {"model": "scripted/chat-a"}, format="json").json()
    response = api.post(
        f"/api/v1/conversations/{c['id']}/messages",
        {"content": "Remember that I love jazz"},
        format="json",
        HTTP_ACCEPT="text/event-stream",
    )
    chunks = iter(response.streaming_content)
    sent = b""
    while b"event: done" not in sent:
        sent += next(chunks)
    # The reply is stored and its last event written; the request is not over yet.
    assert Memory.objects.get(owner=account).pass_requested
    assert queued_passes() == 0
    for _ in chunks:
        pass
    response.close()
    assert queued_passes() == 1
