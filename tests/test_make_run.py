"""The README's `make run`, for real: embedded (SQLite, filesystem broker, a Celery worker, the
offline models), serving, remembering, restarting a dead worker; stopped by Ctrl-C or SIGTERM
with nothing left behind, and never saying "ready" for a server it did not start
(config/launcher.py)."""

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings

from config.launcher import RUN_HEADER, is_ours
from core import running

pytestmark = pytest.mark.skipif(
    not Path(sys.executable).parent.joinpath("celery").exists(), reason="needs the venv"
)

EMBEDDED_ENV_DROPS = (
    "DATABASE_URL",
    "REDIS_URL",
    "DJANGO_SETTINGS_MODULE",
    "PRODUCTION",
    "TESTING",
    "SECRET_KEY",
)
READY = "Whizi is ready on http://127.0.0.1:{port}"
MAKE_RUN = ["make", "-o", "install", "run"]  # the venv is there: never rebuilt by a test


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_is_free(port: int) -> bool:
    """Nothing listens on it (SO_REUSEADDR as a server's: closing connections do not count)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


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


def session_of(leader: int) -> list[str]:
    """The processes still in the session a run was started in (``start_new_session``): every
    process it started, however deep, unless one left the session itself (none of ours does)."""
    out = subprocess.run(
        ["ps", "-eo", "pid=,sid=,stat=,args="], capture_output=True, text=True, check=True
    ).stdout
    return [line for line in out.splitlines() if int(line.split()[1]) == leader]


def children_of(pid: int, name: str) -> list[int]:
    out = subprocess.run(
        ["ps", "-o", "pid=,args=", "--ppid", str(pid)], capture_output=True, text=True
    ).stdout
    return [int(line.split()[0]) for line in out.splitlines() if name in line]


def worker_of(run_pid: int) -> int | None:
    """The Celery worker that bin/run started (its direct child), if one is running."""
    pids = children_of(run_pid, "celery")
    return pids[0] if pids else None


def embedded_env(**env: str) -> dict[str, str]:
    """The environment of `make run` on a newcomer's machine: none of the tests' servers."""
    return {
        **{k: v for k, v in os.environ.items() if k not in EMBEDDED_ENV_DROPS},
        "PY": sys.executable,
        **env,
    }


class Run:
    """``bin/run`` (or ``make run``) in a session of its own, its output in a file."""

    def __init__(
        self, command: list[str], *, port: int, data_dir: Path, log: Path, **env: str
    ) -> None:
        self.port, self.log = port, log
        with log.open("w") as out:
            self.process = subprocess.Popen(
                command,
                cwd=settings.BASE_DIR,
                env=embedded_env(DATA_DIR=str(data_dir), PORT=str(port), **env),
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        return self.log.read_text()

    def launcher(self) -> int | None:
        """The launcher's pid: bin/run's own, or make's one child's."""
        if self.process.args[0] == "bin/run":
            return self.pid
        return next(iter(children_of(self.pid, "")), None)

    def web_server_started(self) -> bool:
        launcher = self.launcher()
        return launcher is not None and bool(children_of(launcher, "gunicorn"))

    def is_ready(self) -> bool:
        return READY.format(port=self.port) in self.output()

    def wait_ready(self) -> None:
        assert eventually(self.is_ready, seconds=300), self.output()[-3000:]

    def wait_end(self, seconds: float = 90) -> int:
        """Its exit status; after ``seconds`` it is killed, group and all, and the test fails."""
        try:
            return self.process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            os.killpg(self.pid, signal.SIGKILL)
            pytest.fail(f"still running {seconds} s after the signal:\n{self.output()[-3000:]}")

    def kill_if_running(self) -> None:
        """Clean-up when a test failed halfway: nothing of it may outlive the test."""
        for line in session_of(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(int(line.split()[0]), signal.SIGKILL)
        self.process.wait(timeout=30)


def assert_nothing_left(run: Run) -> None:
    assert eventually(lambda: not session_of(run.pid), seconds=60) is not None, session_of(run.pid)
    assert port_is_free(run.port)


# What GNU make says when its signal handler finds its child already reaped (below).
MAKE_LOST_ITS_CHILD = "make: *** wait: No child processes.  Stop."


def assert_stopped_by(run: Run, number: int, status: int) -> None:
    """The status of a run stopped by signal ``number``: never 0. bin/run exits with 128 + the
    number. make, whose child failed, says so and dies of the signal too, unless the launcher
    ended before make ran its handler (a busy machine; a launcher stopped while its children
    start ends within a second): the wait() the signal interrupted has then already reaped it,
    so make's handler finds no child and exits 2 (seen at load 15 with a child that exits at
    once on SIGINT: 7 runs in 30)."""
    output = run.output()
    if run.process.args[0] == "bin/run":
        assert status == 128 + number, output[-2000:]
    elif status == 2:
        assert MAKE_LOST_ITS_CHILD in output, output[-2000:]
    else:
        assert status == -number and f"Error {128 + number}" in output, output[-2000:]


def run_refused(port: int, data_dir: Path) -> subprocess.CompletedProcess[str]:
    """``bin/run`` that is expected to stop at once (exit 1), never ready."""
    result = subprocess.run(
        ["bin/run"],
        cwd=settings.BASE_DIR,
        env=embedded_env(DATA_DIR=str(data_dir), PORT=str(port)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert "is ready" not in result.stdout + result.stderr
    return result


def assert_refused(port: int, data_dir: Path) -> None:
    """A run on a port already taken stops before it starts or creates anything, says why, and
    says nothing like "ready" for the server already there."""
    result = run_refused(port, data_dir)
    assert f"cannot listen on 127.0.0.1:{port}: Address already in use" in result.stderr
    assert "starting" not in result.stdout
    assert not data_dir.exists()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory) -> Path:
    """One embedded DATA_DIR for the module: a run after the first finds it migrated."""
    return tmp_path_factory.mktemp("embedded-var")


def test_make_run_serves_remembers_and_stops_cleanly(tmp_path, data_dir):
    port = free_port()
    # A sweeper every 2 s that sends a pass again once it waited 5 s, so that a lost task
    # message is made good within the test (60 s and 600 s by default).
    run = Run(
        MAKE_RUN,
        port=port,
        data_dir=data_dir,
        log=tmp_path / "run.log",
        MEMORY_SWEEP_SECONDS="2",
        MEMORY_PASS_RESEND_AFTER_SECONDS="5",
    )

    def say(text: str) -> None:
        path = f"/api/v1/conversations/{conversation['id']}/messages"
        call(port, "POST", path, {"content": text}, token)

    def memory() -> list[str]:
        return call(port, "GET", "/api/v1/memory", token=token)["lines"]

    try:
        # bin/run says "ready" only once /healthz is 200 (web, database, broker and worker) and
        # is the server it started.
        run.wait_ready()
        health = call(port, "GET", "/healthz")
        assert health == {
            "status": "ok",
            "database": "ok",
            "broker": "ok",
            "worker": "ok",
            "memory_model": "ok",
        }
        # Without this run's token, /healthz says nothing of it.
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
            assert RUN_HEADER not in response.headers
        assert not is_ours(port, "not-this-runs-token")

        # A second run on the same port is refused before it starts anything, and says nothing
        # like "ready" for the server already there.
        assert_refused(port, tmp_path / "second")
        # The run holds its data folder, children included: no restore can replace it.
        assert running.running(data_dir)

        token = call(port, "POST", "/api/v1/auth/guest")["token"]
        conversation = call(port, "POST", "/api/v1/conversations", {}, token)
        say("My name is Anna, remember that")
        assert eventually(memory) == ["Name is Anna"]
        assert (data_dir / "whizi.sqlite3").exists()

        # The pass's task message is truncated before the worker reads it, beside a file of
        # JSON that is no message: the worker sets both aside and goes on (the same process,
        # never restarted), and the sweeper sends the pass again from the database.
        worker = worker_of(run.launcher())
        os.kill(worker, signal.SIGSTOP)  # its consumer (and beat) wait while we write
        try:
            say("I live in Turin, remember that")
            queue = data_dir / "broker" / "queue"
            sent = eventually(lambda: next(queue.glob("*.memory.msg"), None), seconds=30)
            sent.write_bytes(sent.read_bytes()[: sent.stat().st_size // 2])
            (queue / "0_junk.memory.msg").write_bytes(b'{"properties": []}')
        finally:
            os.kill(worker, signal.SIGCONT)
        assert eventually(lambda: len(memory()) == 2) is not None, run.output()[-3000:]
        assert memory() == ["Name is Anna", "Lives in Turin"]
        assert worker_of(run.launcher()) == worker
        assert "the worker stopped" not in run.output()
        assert sorted(p.name for p in (data_dir / "broker" / "unreadable").iterdir()) == sorted(
            ["0_junk.memory.msg", sent.name]
        )

        # The worker dies: the web server keeps serving, the worker comes back, nothing is lost.
        os.kill(worker, signal.SIGKILL)
        say("I work as a nurse, remember that")
        assert eventually(lambda: worker_of(run.launcher()) not in (None, worker))
        assert eventually(lambda: len(memory()) == 3) is not None, run.output()[-3000:]
        assert memory() == ["Name is Anna", "Lives in Turin", "Works as a nurse"]
    finally:
        # What a supervisor does, and what failed 3 times in 10: SIGTERM to make run's group
        # (make passes it on to the launcher as well).
        if run.process.poll() is None:
            os.killpg(run.pid, signal.SIGTERM)
        status = run.wait_end()
    output = run.output()
    assert_stopped_by(run, signal.SIGTERM, status)
    assert "Warm shutdown" in output  # the worker was stopped, not killed
    assert "the worker stopped; restart #1" in output
    assert_nothing_left(run)


# (command, whom the signal goes to, the signal, sent once ready or while starting), beside the
# SIGTERM to make run's group once ready that ends the test above: each way of stopping once
# (a stop while starting waits for the children's own start, up to about 40 s on this machine).
STOPS = {
    "SIGINT to the launcher once ready": (["bin/run"], "launcher", "SIGINT", True),
    "SIGTERM to make run's group while it starts": (MAKE_RUN, "group", "SIGTERM", False),
    "Ctrl-C (SIGINT to make run's group) while it starts": (MAKE_RUN, "group", "SIGINT", False),
    "SIGINT to the launcher while it starts": (["bin/run"], "launcher", "SIGINT", False),
}


@pytest.mark.parametrize(
    ("command", "whom", "signal_name", "once_ready"), STOPS.values(), ids=STOPS.keys()
)
def test_a_stop_leaves_no_process_and_frees_the_port(
    tmp_path, data_dir, command, whom, signal_name, once_ready
):
    """SIGTERM to `make run`'s group (make passes it on as well: the launcher gets two) or to
    the launcher, Ctrl-C, once ready or while starting: every child stops, the port is free and
    the run says it was stopped (a non-zero status)."""
    number = getattr(signal, signal_name)
    run = Run(command, port=free_port(), data_dir=data_dir, log=tmp_path / "run.log")
    try:
        if once_ready:
            run.wait_ready()
        else:  # the web server and the worker are being started
            assert eventually(run.web_server_started), run.output()[-3000:]
        if whom == "group":
            os.killpg(run.pid, number)
        else:
            os.kill(run.pid, number)
        status = run.wait_end()
    finally:
        if run.process.poll() is None:
            run.kill_if_running()
    assert_stopped_by(run, number, status)
    assert_nothing_left(run)


class LeftoverServer(BaseHTTPRequestHandler):
    """What a server left running answers: /healthz is 200."""

    def do_GET(self) -> None:
        body = json.dumps({"status": "ok", "database": "ok", "broker": "ok", "worker": "ok"})
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(body.encode())

    def log_message(self, *args) -> None:
        pass


def test_a_port_another_server_holds_is_refused_and_never_called_ready(tmp_path):
    server = ThreadingHTTPServer(("127.0.0.1", 0), LeftoverServer)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        assert call(port, "GET", "/healthz")["status"] == "ok"  # it would pass for ready
        assert not is_ours(port, "any-token")  # but it is not ours
        assert_refused(port, tmp_path / "var")
    finally:
        server.shutdown()
        server.server_close()


def test_a_data_folder_another_run_holds_is_refused(tmp_path):
    """One run per DATA_DIR: its lock is also what a restore checks before replacing the
    database (core/running.py)."""
    data_dir = tmp_path / "var"
    data_dir.mkdir()
    held = running.hold(data_dir)
    assert held is not None
    assert running.running(data_dir)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    try:
        result = run_refused(port, data_dir)
    finally:
        held.close()
    assert f"another `make run` uses {data_dir}" in result.stderr
    assert not running.running(data_dir)
