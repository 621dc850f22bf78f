"""The README's `make run`, for real: embedded (SQLite, filesystem broker, a Celery worker, the
offline models), serving, remembering, and stopping both processes on SIGTERM."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

EMBEDDED_ENV_DROPS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "PRODUCTION",
    "TESTING",
)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={
            "Content-Type": "application/json",
            **({"Authorization": f"Token {token}"} if token else {}),
        },
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def eventually(check, seconds: float = 180.0):
    """Poll ``check`` until it holds. The bound only keeps a broken run from hanging the suite:
    every wait here is for a condition (ready, remembered), never a sleep that hopes."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            result = check()
            if result:
                return result
        except OSError:
            pass
        if time.monotonic() > deadline:
            return None
        time.sleep(0.25)


def leftovers(marker: str) -> list[str]:
    out = subprocess.run(
        ["ps", "-eo", "pid,args"], capture_output=True, text=True, check=True
    ).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


def worker_of(run_pid: int) -> int | None:
    """The Celery worker that bin/run started (its direct child), if one is running."""
    out = subprocess.run(
        ["ps", "-o", "pid=,args=", "--ppid", str(run_pid)], capture_output=True, text=True
    ).stdout
    pids = [int(line.split()[0]) for line in out.splitlines() if "celery" in line]
    return pids[0] if pids else None


@pytest.mark.skipif(
    not Path(sys.executable).parent.joinpath("celery").exists(), reason="needs the venv"
)
def test_make_run_serves_remembers_and_stops_cleanly(tmp_path):
    port = free_port()
    data_dir = tmp_path / "embedded-var"
    env = {k: v for k, v in os.environ.items() if k not in EMBEDDED_ENV_DROPS}
    env.update(DATA_DIR=str(data_dir), PORT=str(port), PY=sys.executable)
    log = (tmp_path / "run.log").open("w")
    run = subprocess.Popen(
        ["bin/run"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        # bin/run says "ready" only once /healthz is 200: web, database, broker and worker.
        ready = f"Whizi is ready on http://127.0.0.1:{port}"
        assert eventually(lambda: ready in (tmp_path / "run.log").read_text(), seconds=300), (
            tmp_path / "run.log"
        ).read_text()[-2000:]
        health = call(port, "GET", "/healthz")
        assert health == {
            "status": "ok",
            "database": "ok",
            "broker": "ok",
            "worker": "ok",
            "memory_model": "ok",
        }
        token = call(port, "POST", "/api/v1/auth/guest")["token"]
        conversation = call(port, "POST", "/api/v1/conversations", {}, token)
        call(
            port,
            "POST",
            f"/api/v1/conversations/{conversation['id']}/messages",
            {"content": "My name is Anna, remember that"},
            token,
        )
        memory = eventually(lambda: call(port, "GET", "/api/v1/memory", token=token)["lines"])
        assert memory == ["Name is Anna"]
        assert (data_dir / "whizi.sqlite3").exists()

        # The worker dies: the web server keeps serving, the worker comes back, nothing is lost.
        worker = worker_of(run.pid)
        os.kill(worker, signal.SIGKILL)
        call(
            port,
            "POST",
            f"/api/v1/conversations/{conversation['id']}/messages",
            {"content": "I live in Turin, remember that"},
            token,
        )
        assert eventually(lambda: worker_of(run.pid) not in (None, worker))
        memory = eventually(
            lambda: (
                len(lines := call(port, "GET", "/api/v1/memory", token=token)["lines"]) == 2
                and lines
            )
        )
        assert memory == ["Name is Anna", "Lives in Turin"]
    finally:
        os.killpg(run.pid, signal.SIGTERM)
        run.wait(timeout=60)
        log.close()
    output = (tmp_path / "run.log").read_text()
    assert run.returncode == 0, output[-2000:]
    assert "Warm shutdown" in output  # the worker was stopped, not killed
    assert "the worker stopped; restart #1" in output
    assert eventually(lambda: not leftovers(str(data_dir)), seconds=30) is not None, leftovers(
        str(data_dir)
    )
