"""What a server loads before it serves, so no first request or pass waits for it."""

from __future__ import annotations

import asyncio
import io
import logging
import os
import sys
import threading
import warnings
from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from typing import Any

from celery import current_app
from django.urls import URLResolver

import llm
from memory import facade

log = logging.getLogger(__name__)


def warm_up(*, urls: bool = False) -> None:
    """Before a server forks: import litellm, each hosted model's provider, Celery's task client
    and the tokenizer; with ``urls``, the URLconf, its compiled patterns and the translation
    catalogs. No connection or thread is left, so the forked children share it all."""
    llm.litellm()
    _load_hosted_providers()
    _load_the_task_client()
    facade.load_tokenizer()
    if urls:
        from django.conf import settings
        from django.urls import get_resolver
        from django.utils import translation

        resolver = get_resolver()  # imports the URLconf and its views
        for code, _ in settings.LANGUAGES:
            with translation.override(code):
                translation.gettext("Memory")
                _compile_patterns(resolver)
        _compile_queries()
        _answer_anonymously()


def _compile_queries() -> None:
    """Each model's metadata, and one query of it compiled, with no connection: Django builds
    both on first use otherwise, in every child."""
    from django.apps import apps

    for model in apps.get_models():
        model._meta.get_fields()
        model._base_manager.filter(pk__isnull=False).query.sql_with_params()


# Loggers the anonymous requests would wake: a 401 is their point.
_NOISY = ("django.request", "django.security")


def _answer_anonymously() -> None:
    """A page and an API call answered once, to no one, through the whole stack: what a first
    request would load (middleware, sessions, messages, templates, DRF, their regexes) loads
    here, once for every child. Nothing is stored, every connection is closed, and a failure
    only means the first request loads it."""
    from django.conf import settings
    from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
    from django.db import connections

    host = next((h.lstrip(".") for h in settings.ALLOWED_HOSTS if h != "*"), "localhost")
    handler = WSGIHandler()
    # The API call's 401 is the point, and a page may fail without collected static files.
    quiet = {logger: logger.disabled for logger in map(logging.getLogger, _NOISY)}
    for logger in quiet:
        logger.disabled = True
    try:
        for path in ("/login/", "/api/v1/memory"):
            environ = {
                "REQUEST_METHOD": "GET",
                "PATH_INFO": path,
                "SERVER_NAME": host,
                "SERVER_PORT": "443",
                "HTTP_HOST": host,
                "REMOTE_ADDR": "127.0.0.1",
                "wsgi.url_scheme": "https",
                "wsgi.input": io.BytesIO(),
                "wsgi.errors": sys.stderr,
            }
            try:
                # Not ``handler(environ, ...)``: its request_started signal has listeners
                # that start threads (``chat.apps``), and no thread may cross the fork.
                handler.get_response(WSGIRequest(environ)).close()
            except Exception as error:  # noqa: BLE001 - see above
                log.debug("warmup.request_failed error=%s", type(error).__name__)
    finally:
        for logger, disabled in quiet.items():
            logger.disabled = disabled
        connections.close_all()


def connect_threads(pool: Executor, threads: int) -> None:
    """In a forked web worker: each of its ``threads`` request threads opens its database
    connection now (they are per thread), not on its first request, and plans a query on every
    table, so its new server process starts with warm caches. Never fatal."""
    from django.apps import apps
    from django.db import connection

    together = threading.Barrier(threads)  # all at once, so the pool starts every thread

    # Planning a query on a table loads it and its indexes, even with nothing to read.
    tables = sorted({m._meta.db_table for m in apps.get_models() if m._meta.managed})
    plan_them = " UNION ALL ".join(
        f"SELECT 1 FROM {connection.ops.quote_name(table)} WHERE false"  # noqa: S608 - ours
        for table in tables
    )

    def connect() -> None:
        together.wait(timeout=10)
        with connection.cursor() as cursor:
            cursor.execute(plan_them)

    for started in [pool.submit(connect) for _ in range(threads)]:
        try:
            started.result(timeout=30)
        except Exception as error:  # noqa: BLE001 - a request connects on its own then
            log.warning("warmup.connection_failed error=%s", type(error).__name__)


def _compile_patterns(resolver: URLResolver) -> None:
    """Each URL pattern's regex, compiled on first use (per language) otherwise."""
    for entry in resolver.url_patterns:
        entry.pattern.regex  # noqa: B018
        if isinstance(entry, URLResolver):
            _compile_patterns(entry)


def warm_up_process() -> None:
    """In a forked worker: one offline model call starts the thread pools (threads do not
    survive a fork) and fills litellm's caches. Never fatal."""
    try:
        llm.complete(
            model=f"{llm.OFFLINE_PROVIDER}/whizi-chat",
            messages=[{"role": "user", "content": "Hello"}],
            timeout=10,
        )
    except llm.ModelError as error:
        log.warning("warmup.model_call_failed code=%s", error.code)


def _load_hosted_providers() -> None:
    """One request per hosted model to a closed port on the loopback, and OpenAI's response
    models built: the SDK, client, request transformation and answer parsing load here, once,
    not in every worker's first reply (a hosted first message took twice the tenth's time).
    Nothing is sent anywhere, not even to a proxy; a call that succeeded would leave litellm's
    callback thread behind, which no child could use."""
    from django.conf import settings

    lib = llm.litellm()
    ours = {provider["provider"] for provider in lib.custom_provider_map}
    hosted = sorted(
        model
        for model in {*settings.CHAT_MODELS, settings.MEMORY_MODEL}
        if model.split("/", 1)[0] not in ours
    )
    with _straight_to_the_loopback():
        for model in hosted:
            try:
                lib.completion(
                    model=model,
                    messages=[{"role": "user", "content": "Hello"}],
                    api_base=NOWHERE,
                    api_key="warm-up",
                    max_retries=0,
                    timeout=2,
                )
            except Exception:  # noqa: BLE001 - refused on purpose: loading was the point
                log.debug("warmup.provider_loaded")
    if hosted:
        # litellm's service logger gave this thread an event loop: closed, its self-pipe is not
        # shared by every child (litellm runs a loop of its own when it finds this one closed).
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            asyncio.get_event_loop().close()
        from openai.types.chat import ChatCompletion, ChatCompletionChunk

        # Their validators are built on the first answer otherwise (tens of milliseconds).
        ChatCompletion.model_validate(_ANSWER)
        ChatCompletionChunk.model_validate(
            {**_ANSWER, "object": "chat.completion.chunk", "choices": []}
        )


@contextmanager
def _straight_to_the_loopback() -> Iterator[None]:
    """No proxy from the environment sees the warm-up's requests, or keeps their connections
    open across the fork: httpx reads ``NO_PROXY`` when litellm builds its client."""
    saved = {name: os.environ.get(name) for name in ("NO_PROXY", "no_proxy")}
    for name, value in saved.items():
        os.environ[name] = ",".join(filter(None, [value, "127.0.0.1"]))
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


# A closed port on the loopback (discard): a hosted provider's request to it fails at once.
NOWHERE = "http://127.0.0.1:9/v1"
_ANSWER: dict[str, Any] = {
    "id": "warm-up",
    "object": "chat.completion",
    "created": 0,
    "model": "warm-up",
    "choices": [
        {"index": 0, "message": {"role": "assistant", "content": "Hi"}, "finish_reason": "stop"}
    ],
    "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
}


def _load_the_task_client() -> None:
    """Celery's tasks, routes, result backend and broker transport, which a web process would
    otherwise load on its first enqueued pass. No connection is opened."""
    app = current_app  # config.celery's, set up with Django
    app.finalize(auto=True)
    app.backend  # noqa: B018 - built on first use
    app.amqp.router  # noqa: B018
    with app.connection_for_write() as connection:
        connection.transport  # noqa: B018 - imports the transport's module
