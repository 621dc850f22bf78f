"""Shared fixtures.

- The suite runs against real PostgreSQL and Redis and stops loudly when either is missing.
- No network: any connection to a non-loopback address fails the test that made it.
- Models are faked at exactly one seam: a litellm custom provider, ``scripted/<name>``, whose
  answers each test scripts (``scripted.answer("...")``). Everything of ours runs for real.
"""

from __future__ import annotations

import copy
import socket
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterator
from typing import Any

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from knox.crypto import hash_token
from rest_framework.test import APIClient

from accounts.models import User
from accounts.tokens import issue_token
from config.celery import app
from tests.memory.helpers import Keeper

# --- Real services, no network -----------------------------------------------------------------

_real_connect = socket.socket.connect


def _loopback_only(self: socket.socket, address: Any) -> Any:
    host = address[0] if isinstance(address, tuple) else address
    is_ip = isinstance(host, str) and self.family in (socket.AF_INET, socket.AF_INET6)
    if is_ip and not (host.startswith("127.") or host in ("::1", "localhost")):
        raise RuntimeError(f"tests must not reach the network ({host})")
    return _real_connect(self, address)


def pytest_configure(config: pytest.Config) -> None:
    socket.socket.connect = _loopback_only  # type: ignore[method-assign]
    db = settings.DATABASES["default"]
    if not db["ENGINE"].endswith("postgresql"):
        raise pytest.UsageError("the tests need PostgreSQL (DATABASE_URL)")
    try:
        socket.create_connection(
            (db.get("HOST") or "127.0.0.1", int(db.get("PORT") or 5432)), 2
        ).close()
    except OSError as exc:
        raise pytest.UsageError(f"PostgreSQL is unreachable: {exc}") from exc
    import redis

    try:
        redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        raise pytest.UsageError(f"Redis is unreachable at REDIS_URL: {exc}") from exc


# --- The model seam ----------------------------------------------------------------------------


class Scripted:
    """Answers for ``scripted/*`` models, consumed in order. An item is a text, an exception
    instance to raise, ``("sleep", seconds, text)``, or a callable of the messages returning one
    of those (to act in the middle of a model call). With nothing scripted, it echoes."""

    def __init__(self) -> None:
        self.answers: deque[Any] = deque()
        self.calls: list[dict[str, Any]] = []

    def answer(self, *items: Any) -> None:
        self.answers.extend(items)

    def next_text(self, model: str, messages: list[dict[str, Any]]) -> str:
        self.calls.append({"model": model, "messages": messages})
        item = self.answers.popleft() if self.answers else f"echo: {messages[-1]['content']}"
        while callable(item) and not isinstance(item, type):
            item = item(messages)
        if isinstance(item, BaseException):
            raise item
        if isinstance(item, tuple) and item[0] == "sleep":
            time.sleep(item[1])
            return item[2]
        return item


class Streamed:
    """A scripted answer that streams in exactly these pieces; a ``threading.Event`` among them
    holds the stream there until the test sets it (to look at a reply halfway)."""

    def __init__(self, *pieces: str | threading.Event) -> None:
        self.pieces = pieces

    @property
    def text(self) -> str:
        return "".join(piece for piece in self.pieces if isinstance(piece, str))


@pytest.fixture
def scripted() -> Iterator[Scripted]:
    import llm
    from llm.provider import TextProvider

    script = Scripted()

    class ScriptedProvider(TextProvider):
        def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
            return script.next_text(model, messages)

        def streaming(self, model: str, messages: list, *args: Any, **kwargs: Any) -> Any:
            if not (script.answers and isinstance(script.answers[0], Streamed)):
                yield from super().streaming(model, messages)
                return
            streamed = script.answers.popleft()
            script.calls.append({"model": model, "messages": messages})
            final = max(i for i, piece in enumerate(streamed.pieces) if isinstance(piece, str))
            for i, piece in enumerate(streamed.pieces):
                if isinstance(piece, threading.Event):
                    piece.wait(timeout=60)  # a bound, should the test never set it
                    continue
                last = i == final
                yield {
                    "text": piece,
                    "tool_use": None,
                    "is_finished": last,
                    "finish_reason": "stop" if last else "",
                    "index": 0,
                    "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
                    if last
                    else None,
                }

        def usage(self, messages: list[dict[str, Any]], text: str) -> tuple[int, int]:
            return 100, 20

    lib = llm.litellm()
    saved = list(lib.custom_provider_map)
    lib.custom_provider_map = [
        *saved,
        {"provider": "scripted", "custom_handler": ScriptedProvider()},
    ]
    yield script
    lib.custom_provider_map = saved


@pytest.fixture(scope="session", autouse=True)
def _empty_broker_queues() -> None:
    """Tests enqueue real tasks into Redis; start each run with the project's queues empty
    (only those keys: REDIS_URL may point at a database shared with other things). Kept
    idempotency keys and reply relays go too: a new test database numbers people from 1 again."""
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL)
    client.delete("memory", "default")
    for pattern in ("whizi:idempotency:*", "whizi:chat:reply:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


@pytest.fixture(autouse=True)
def _request_bounds_kept() -> Iterator[None]:
    """Each test ends with the database bounds of the test settings (a web request's) again.
    A worker started in this process (the ``worker`` fixture, ``start_worker``) sends
    ``worker_init``, whose handler gives the whole process a worker's bounds
    (``config/celery.py``): left in place, every later test would run with a 60 s statement
    bound and a 62 s stall guard, and one that waits on a frozen server would outlast its own
    bound instead of seeing a 503 within seconds."""
    from django.db import connections

    from config.database import STALL_SECONDS

    wrapper = connections["default"]
    saved = {
        key: copy.deepcopy(wrapper.settings_dict.get(key)) for key in ("OPTIONS", STALL_SECONDS)
    }
    yield
    if any(wrapper.settings_dict.get(key) != value for key, value in saved.items()):
        wrapper.settings_dict.update(saved)
        wrapper.close()  # the next connection opens with the bounds restored


@pytest.fixture(autouse=True)
def _broker_breaker_closed() -> Iterator[None]:
    """Each test starts with the broker trusted again (a test may have made it fail)."""
    from memory.queueing import broker_breaker

    broker_breaker.reset()
    yield
    broker_breaker.reset()


@pytest.fixture(autouse=True)
def _memory_model_healthy() -> Iterator[None]:
    """Each test starts with the memory model in good standing: a test that made it fail
    leaves no state in the shared cache for the next one's /healthz."""
    from django.core.cache import cache

    from memory.engine import model_health

    cache.delete(model_health.KEY)
    yield


@pytest.fixture
def memory_model(scripted: Scripted, settings: Any) -> Scripted:
    """Memory passes on the scripted model: each test says what the memory model answers."""
    settings.MEMORY_MODEL = "scripted/memory"
    return scripted


# --- A real worker, and a memory model that keeps score ------------------------------------------


@pytest.fixture
def worker():
    """A real worker consuming the memory queue from Redis, in this process (threads), so the
    scripted models of the test answer its calls."""
    redis.Redis.from_url(settings.REDIS_URL).delete("memory")
    with start_worker(
        app,
        pool="threads",
        concurrency=2,
        queues=["memory"],
        perform_ping_check=False,
        shutdown_timeout=10,
    ):
        yield


@pytest.fixture
def keeper(memory_model) -> Keeper:
    """Memory passes on a model that keeps every line and learns names and likes."""
    keeper = Keeper()
    memory_model.answer(*[keeper] * 2_000)
    return keeper


# --- Rate limits ------------------------------------------------------------------------------


@pytest.fixture
def fresh_cache(settings: Any) -> None:
    """The cache in a namespace of this test alone: empty, whatever ran before (without
    flushing a Redis database the broker's queues share)."""
    settings.CACHES = {
        "default": {**settings.CACHES["default"], "KEY_PREFIX": f"test-{uuid.uuid4().hex}"}
    }


@pytest.fixture
def throttling(settings: Any, fresh_cache: None) -> dict[str, str]:
    """Rate limits on (the test settings turn them off), with small rates, counted in a cache
    namespace of this test alone: a fresh count every test, whatever ran before."""
    settings.THROTTLE_ENABLED = True
    settings.THROTTLE_RATES = {
        "login": "3/min",
        "login_email": "3/hour",
        "signup": "3/hour",
        "signup_email": "2/hour",
        "guest": "3/hour",
        "message": "3/min",
        "voice": "2/hour",
        "resume": "10/min",
        "memory_import": "2/hour",
        "password_check": "5/hour",
        "password_reset": "3/hour",
        "password_reset_email": "2/hour",
    }
    return settings.THROTTLE_RATES


# --- People and clients ------------------------------------------------------------------------


def make_account(email: str = "anna@example.com") -> User:
    return User.objects.create_user(username=email, email=email, password="a-long-passphrase-42")


def owner_of_token(token: str) -> User:
    """The person an API token is for (the database holds only its digest)."""
    return User.objects.get(auth_token_set__digest=hash_token(token))


def client_for(user: User) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {issue_token(user)}")
    return client


@pytest.fixture
def account(db: None) -> User:
    return make_account()


@pytest.fixture
def api(account: User) -> APIClient:
    return client_for(account)


@pytest.fixture
def other_api(db: None) -> APIClient:
    return client_for(make_account("mallory@example.com"))
