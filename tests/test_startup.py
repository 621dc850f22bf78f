"""Start-up stays cheap and offline: litellm (seconds to import) is imported lazily, and when it
is, it reads its price list and tokenizer files from disk."""

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

PROBE = """
import os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django
django.setup()
from django.urls import resolve
import config.urls, chat.views, chat.api.views  # the whole app
import memory.engine.passes, memory.engine.tasks
resolve("/api/v1/models")
print("litellm imported:", "litellm" in sys.modules)
print("offline:", os.environ["LITELLM_LOCAL_MODEL_COST_MAP"], os.environ["LITELLM_OFFLINE_MODE"])
print("bpe:", os.environ["TIKTOKEN_CACHE_DIR"] == os.environ["CUSTOM_TIKTOKEN_CACHE_DIR"])
"""


def test_loading_the_app_does_not_import_litellm_and_pins_it_offline(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DATA_DIR": str(tmp_path), "HOME": str(tmp_path)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=settings.BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert "litellm imported: False" in out
    assert "offline: True true" in out
    assert "bpe: True" in out


# The production settings path: what a deployment sets (PRODUCTION follows DATABASE_URL), in a
# process of its own, since the test settings are not production's.
PRODUCTION_ENV = {
    "PATH": "/usr/bin:/bin",
    "DATABASE_URL": "postgres://whizi@db.internal:5432/whizi",
    "REDIS_URL": "redis://redis.internal:6379/0",
    "SECRET_KEY": "a-production-secret",
    "ALLOWED_HOSTS": "whizi.example",
}


def in_production(probe: str, tmp_path, **env: str) -> str:
    """What ``probe`` prints, run after ``django.setup()`` with the production settings (and
    ``env`` on top); it connects to nothing unless it queries."""
    setup = 'import os\nos.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")\n'
    setup += "import django\ndjango.setup()\nfrom django.conf import settings\n"
    return subprocess.run(
        [sys.executable, "-c", setup + probe],
        cwd=settings.BASE_DIR,
        env={**PRODUCTION_ENV, "DATA_DIR": str(tmp_path), "HOME": str(tmp_path), **env},
        capture_output=True,
        text=True,
        check=True,
    ).stdout


SETTINGS_PROBE = """
db = settings.DATABASES["default"]
print("persistent:", db["CONN_MAX_AGE"], db["CONN_HEALTH_CHECKS"])
"""


def test_production_keeps_its_database_connections_and_checks_them_before_reuse(tmp_path):
    assert "persistent: 60 True" in in_production(SETTINGS_PROBE, tmp_path)


def health_of(port: int) -> dict | None:
    """What /healthz says, whatever its status code."""
    import json
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            return json.loads(response.read())
    except urllib.error.HTTPError as error:
        return json.loads(error.read())


@contextlib.contextmanager
def web_server(tmp_path: Path, *, workers: int = 2, **env: str) -> Iterator[int]:
    """gunicorn with the repository's config on a free port (its output in ``web.log``)."""
    from tests.test_make_run import EMBEDDED_ENV_DROPS, free_port

    port = free_port()
    environment = {k: v for k, v in os.environ.items() if k not in EMBEDDED_ENV_DROPS}
    environment.update(DATA_DIR=str(tmp_path), HOME=str(tmp_path), **env)
    log = (tmp_path / "web.log").open("w")
    web = subprocess.Popen(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"),
            *("--bind", f"127.0.0.1:{port}", "--workers", str(workers), "config.wsgi"),
        ],
        cwd=settings.BASE_DIR,
        env=environment,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        yield port
    finally:
        os.killpg(web.pid, signal.SIGTERM)
        web.wait(timeout=60)
        log.close()


def test_the_web_server_loads_litellm_before_it_forks_a_worker(tmp_path):
    """gunicorn with the repository's config (as in production and ``make run``): the master
    has litellm and the tokenizer loaded before the first worker boots, so no worker's first
    message waits for them."""
    from tests.test_make_run import eventually

    with web_server(tmp_path) as port:
        # The server answers /healthz (503 when no worker beats: the suite may or may not have
        # had an in-process worker a moment ago, so the worker's field is not asserted here).
        health = eventually(lambda: health_of(port))
        assert health is not None
        assert (health["database"], health["broker"]) == ("ok", "ok")
    output = (tmp_path / "web.log").read_text()
    loaded = output.index("litellm and the tokenizer loaded")
    assert loaded < output.index("Booting worker")
    assert output.count("Booting worker") == 2


def test_a_process_that_loads_the_apps_knows_every_task_by_name(tmp_path):
    """A web server sends passes by name (``memory.queueing``) and a worker runs them: the apps'
    ``ready`` registers every task, whatever else the process imports."""
    probe = (
        "from config.celery import app\n"
        "print(sorted(name for name in app.tasks if not name.startswith('celery.')))\n"
    )
    out = in_production(probe, tmp_path)
    for task in ("memory.run_pass", "memory.sweep_owed_passes", "accounts.finish_guest_merge"):
        assert f"'{task}'" in out, out


WARM_UP_PROBE = """
import os, socket, sys, threading
def sockets():
    found = 0
    for fd in os.listdir("/proc/self/fd"):
        try:
            found += os.readlink(f"/proc/self/fd/{fd}").startswith("socket:")
        except OSError:
            pass  # the listing's own
    return found
connected = []
connect = socket.socket.connect
socket.socket.connect = lambda self, address: (connected.append(address), connect(self, address))[1]
from config.warmup import NOWHERE, warm_up
import llm
open_before = sockets()
before_warm_up = set(sys.modules)
warm_up(urls=True)
loaded_by_warm_up = set(sys.modules) - before_warm_up
print("threads:", threading.active_count(), "sockets left open:", sockets() - open_before)
print("reached:", sorted({address[0] for address in connected if isinstance(address, tuple)}))
for model in ("openai/gpt-4o-mini", "anthropic/claude-3-5-haiku-20241022"):
    loaded = set(sys.modules)
    try:
        llm.litellm().completion(
            model=model, messages=[{"role": "user", "content": "Hi"}],
            api_base=NOWHERE, api_key="k", max_retries=0, timeout=2,
        )
    except Exception:
        pass
    print(model, "first call loads:", len(set(sys.modules) - loaded))
from config.celery import app
print("tasks ready:", app.finalized, "kombu.transport.redis" in sys.modules)
from django.urls import get_resolver
patterns = [entry.pattern for entry in get_resolver().url_patterns]
print("patterns compiled:", all({"_regex_dict", "regex"} & set(vars(p)) for p in patterns))
print("a first request's modules:", "django.contrib.messages.storage.fallback" in loaded_by_warm_up)
"""


def test_a_server_loads_each_hosted_models_provider_and_its_task_client_before_it_forks(
    tmp_path,
):
    """Issue 29: a hosted first message took twice the tenth's time, loading the provider."""
    # A proxy in the environment (nothing listens there) must not see the warm-up's requests.
    out = in_production(
        WARM_UP_PROBE,
        tmp_path,
        CHAT_MODELS="openai/gpt-4o-mini,offline/whizi-chat",
        HTTP_PROXY="http://127.0.0.2:3128",
    )

    assert "openai/gpt-4o-mini first call loads: 0" in out
    # A provider no setting names is not loaded: what the warm-up spares a first message.
    assert "anthropic/claude-3-5-haiku-20241022 first call loads: 0" not in out
    # Nothing reached but the loopback, and no thread or socket is left to cross the fork.
    assert "reached: ['127.0.0.1']" in out  # the closed port
    assert "threads: 1 sockets left open: 0" in out
    # And Celery's tasks and broker transport, and the URL patterns: compiled once, shared.
    assert "tasks ready: True True" in out
    assert "patterns compiled: True" in out
    # A page and an API call answered to no one: what a first request loads is loaded.
    assert "a first request's modules: True" in out


@pytest.mark.django_db(transaction=True)
def test_each_request_thread_of_a_web_worker_is_connected_before_its_first_request(caplog):
    """Connections are per thread: gthread's request threads each open theirs at start-up
    (``config/gunicorn.py``'s ``post_worker_init``), not in a person's first request."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    from django.db import connection

    from config.warmup import connect_threads

    with ThreadPoolExecutor(max_workers=3) as pool:
        connect_threads(pool, 3)
        together = threading.Barrier(3)

        def connected() -> tuple[int, bool]:
            together.wait(timeout=10)  # one task on each of the three threads
            try:
                return threading.get_ident(), connection.connection is not None
            finally:
                connection.close()

        seen = [future.result() for future in [pool.submit(connected) for _ in range(3)]]
    assert len({ident for ident, _ in seen}) == 3
    assert all(was_connected for _, was_connected in seen)
    assert "warmup.connection_failed" not in caplog.text  # every table's plan included


def test_a_worker_without_request_threads_boots_all_the_same():
    """``-k sync`` has no thread pool to connect: nothing to do, nothing to fail."""
    from types import SimpleNamespace

    from config import gunicorn

    gunicorn.post_worker_init(SimpleNamespace(cfg=SimpleNamespace(threads=1)))
