"""gunicorn settings for the web processes (production and ``make run``).

    gunicorn -c config/gunicorn.py config.wsgi

Environment: ``PORT`` (8000), ``WEB_BIND`` (``0.0.0.0:$PORT``), ``WEB_CONCURRENCY`` (worker
processes; the number of cores, at least 2), ``WEB_THREADS`` (threads per worker, 8),
``WEB_TIMEOUT`` (seconds, 60). Command-line options override these.

- **Preloaded, litellm included.** The application is loaded once in the master, which then
  imports litellm (seconds of work), loads the tokenizer, the URLconf and the translations before
  it forks a worker; each worker then makes one offline model call before it accepts a request
  (litellm's thread pool and first-call caches cannot cross a fork). Every worker, a replacement
  included, serves its first message about as fast as its tenth.
- **No database connection crosses a fork.** The master closes whatever loading opened before
  it forks; each worker thread opens its own and keeps it (``CONN_MAX_AGE``) for later requests.
- **Threads** (``gthread``): a reply streams for as long as the model writes, seconds to
  minutes, and a thread waiting on a model costs little. ``timeout`` then only watches that a
  worker process is alive, never how long one request takes (the model calls have their own
  deadlines, ``CHAT_MODEL_TIMEOUT``). Each thread holds one database connection: plan
  PostgreSQL's ``max_connections`` for workers × threads per web host, plus the Celery pool.
"""

from __future__ import annotations

import os
from typing import Any

bind = os.environ.get("WEB_BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, os.cpu_count() or 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS") or 8)
timeout = int(os.environ.get("WEB_TIMEOUT") or 60)
graceful_timeout = 30
keepalive = 5
preload_app = True
# A worker is replaced now and then (a slow leak cannot grow for ever); preloading makes the
# replacement start warm.
max_requests = 5_000
max_requests_jitter = 500
# gunicorn's control socket sits at one path per user: several servers on one host (web
# processes of other sites, the benchmark, tests) would fight over it. Nothing here uses it.
control_socket_disable = True


def when_ready(server: Any) -> None:
    """In the master, after the application is loaded and before any worker is forked."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connections

    from config.warmup import warm_up

    warm_up(urls=True)
    # A connection the master opened would be shared by every forked worker (one socket, many
    # processes): close it here, while no worker exists yet.
    connections.close_all()
    server.log.info("whizi: litellm and the tokenizer loaded, no connection open; forking workers")


def post_worker_init(worker: Any) -> None:
    """In each worker, before it accepts a request: litellm's first call (its thread pool, its
    caches), which no fork can carry."""
    from config.warmup import warm_up_process

    warm_up_process()
