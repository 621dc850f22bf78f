"""Test settings: the real settings against PostgreSQL and Redis, with a few speed-ups.

``make test`` points ``DATABASE_URL`` and ``REDIS_URL`` at the machine's servers unless they are
already set; nothing here falls back to SQLite, so an unreachable server fails the run loudly.
"""

import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/whizi")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
# `make test` runs the suite in parallel (pytest-xdist): pytest-django gives each worker a test
# database of its own (test_whizi_gw0, ...), and each worker counts down from REDIS_URL's
# database number to one of its own, so no worker's queues, caches or flushes meet another's.
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    url = urlsplit(os.environ["REDIS_URL"])
    number = (int(url.path.strip("/") or 0) - int(worker.removeprefix("gw"))) % 16
    os.environ["REDIS_URL"] = urlunsplit(url._replace(path=f"/{number}"))
os.environ["PRODUCTION"] = "false"
os.environ["TESTING"] = "true"
# Not the embedded key made under DATA_DIR: tests write nothing into the checkout.
os.environ.setdefault("SECRET_KEY", "tests-only-secret-key")

from config.database import STALL_SECONDS, session_options, stall_seconds
from config.settings import *  # noqa: F403

# Each test worker journals erasures in a file of its own (tests read it back).
ERASURE_JOURNAL = str(
    Path(tempfile.gettempdir())
    / f"whizi-erasures-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}.jsonl"
)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Tests script the models through the "scripted" litellm provider (tests/conftest.py).
CHAT_MODELS = ["offline/whizi-chat", "scripted/chat-a", "scripted/chat-b"]
MEMORY_MODEL = "offline/whizi-memory"
# Bounds that keep a broken run from hanging, not races with the machine: on a busy machine a
# scripted answer can take seconds. A test of a timeout sets a short one and sleeps past it.
CHAT_MODEL_TIMEOUT = 10.0
MEMORY_MODEL_TIMEOUT = 10.0
LOGGING["root"]["level"] = "WARNING"  # noqa: F405
# Rate limits are off unless a test turns them on (the `throttling` fixture, with small rates
# and a cache namespace of its own), so no test meets another's counts.
THROTTLE_ENABLED = False
# Tests start threads (in-process workers, races, the live server) that end long before the
# test database does: their connections close with each request or task instead of lingering
# (a persistent one would keep the test database from being dropped). Production keeps them
# (config/settings.py); tests/test_startup.py checks that.
DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
# The suite is the request path (the test client, in-process workers): its waits are bounded as
# a web process's are (``config/wsgi.py``).
DATABASES["default"]["OPTIONS"]["options"] = session_options(  # noqa: F405
    statement_ms=DATABASE_REQUEST_STATEMENT_TIMEOUT_MS,  # noqa: F405
    lock_ms=DATABASE_REQUEST_LOCK_TIMEOUT_MS,  # noqa: F405
)
DATABASES["default"][STALL_SECONDS] = stall_seconds(  # noqa: F405
    DATABASE_REQUEST_STATEMENT_TIMEOUT_MS,  # noqa: F405
    DATABASE_REQUEST_LOCK_TIMEOUT_MS,  # noqa: F405
)
