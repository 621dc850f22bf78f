"""gunicorn settings for the web processes (production and ``make run``).

    gunicorn -c config/gunicorn.py config.wsgi

Environment: ``PORT`` (8000), ``WEB_BIND`` (``0.0.0.0:$PORT``), ``WEB_CONCURRENCY`` (processes;
the core count, at least 2), ``WEB_THREADS`` (8), ``WEB_TIMEOUT`` (seconds, 60),
``WEB_GRACEFUL_TIMEOUT`` (seconds, 120). Command-line
options override these.

Preloaded, so workers share what the master loaded and warmed (a first message still copies the
pages it writes: docs/BENCHMARKS.md); no database connection crosses a fork. Threads, since a reply
streams for minutes; model calls have their own deadlines. Plan ``max_connections`` for workers ×
threads, plus the Celery pool.
"""

from __future__ import annotations

import os
from typing import Any

bind = os.environ.get("WEB_BIND") or f"0.0.0.0:{os.environ.get('PORT', '8000')}"
workers = int(os.environ.get("WEB_CONCURRENCY") or max(2, os.cpu_count() or 1))
worker_class = "gthread"
threads = int(os.environ.get("WEB_THREADS") or 8)
timeout = int(os.environ.get("WEB_TIMEOUT") or 60)
# A worker replaced (a deploy, max_requests) finishes its replies first, for this long: a reply
# still being written after it is lost (the message is kept; a resume says `no_reply`).
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT") or 120)
keepalive = 5
preload_app = True
# Replace workers now and then (a slow leak cannot grow for ever); preloading keeps them warm.
max_requests = 5_000
max_requests_jitter = 500
# One control socket path per user: several servers on a host would fight over it.
control_socket_disable = True


def when_ready(server: Any) -> None:
    """In the master, after the application is loaded and before any worker is forked."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()
    from django.db import connections

    from config.warmup import warm_up

    warm_up(urls=True)
    # A master's connection would be shared by every forked worker: close it before any exists.
    connections.close_all()
    server.log.info("whizi: litellm and the tokenizer loaded, no connection open; forking workers")


def post_worker_init(worker: Any) -> None:
    """In each worker, litellm's first call (its pool and caches are per process), and each
    request thread's database connection (gthread's pool exists by now)."""
    from config.warmup import connect_threads, warm_up_process

    warm_up_process()
    if (pool := getattr(worker, "tpool", None)) is not None:  # gthread's, not sync's
        connect_threads(pool, worker.cfg.threads)
