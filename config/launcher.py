"""``make run`` (``bin/run``): the whole product embedded on this machine — migrations, the web
server (gunicorn with the production configuration, one worker process) and a Celery worker with
beat, all state under ``DATA_DIR`` — until Ctrl-C or SIGTERM stops every part of it.

It replaces a shell script that, in 3 of 10 trials, left gunicorn and the worker running after a
SIGTERM to ``make run``'s process group: make passes SIGTERM on to its child on top of the one
the group already got, and the second one reached the script after its trap had been reset and
killed it halfway through stopping (the children, in process groups of their own, were never
stopped nor waited for); a signal between ``cmd &`` and ``pid=$!`` found no pid to stop. The
next ``make run`` then failed to bind and still said "ready", since the leftover server answered
``/healthz``. Here:

- **A signal only records that a stop was asked** (SIGINT, SIGTERM or SIGHUP, once or many
  times); the loop acts on it between steps, so no signal cuts a start or a stop short.
- **Each child runs in a process group of its own**: a signal to the launcher's group (Ctrl-C,
  a supervisor) reaches the launcher alone, never the worker's pool processes directly (one
  killed while holding the pool's queue lock would leave the worker waiting forever). A stop
  sends SIGTERM to each child's main process (gunicorn and Celery shut down in order, a running
  pass finishes), SIGKILLs what is left of each child's group after a deadline, waits for every
  child, and exits with 128 + the signal's number. A child's end is seen without reaping it
  (``waitid(WNOWAIT)``), so its group id cannot pass to another process before we kill it.
- **The port is bound here**, before anything starts, and handed to gunicorn (``--bind
  fd://N``): a port already taken (an earlier run, another server) is refused at once with a
  clear message, and nothing else can listen there while we run.
- **"Ready" is said only for this run's server**: once ``/healthz`` answers 200 (web, database,
  broker and worker up) *and* says it is ours. gunicorn gets a random token in its environment
  (``WHIZI_RUN_TOKEN``); ``/healthz`` answers ``Whizi-Run: ours`` to a request that sends the same
  token and says nothing otherwise, so the token is never disclosed (``config/health.py``).
- **A worker that dies is restarted** with a backoff (1 s doubling to 60 s, back to 1 s once one
  lived a minute) while the web server keeps serving, after ``manage.py resume_memory_passes``
  releases the dead worker's leases and sends every owed pass again. The web server dying stops
  everything (exit status 1).

Standard library only: it runs before Django is set up, with the venv's Python.
"""

from __future__ import annotations

import contextlib
import http.client
import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import Any, Final

from core import running

ROOT: Final = Path(__file__).resolve().parent.parent
# The header of the question "are you the server this run started?" (config/health.py).
RUN_HEADER: Final = "Whizi-Run"
RUN_TOKEN_ENV: Final = "WHIZI_RUN_TOKEN"  # noqa: S105 - the variable's name, not a secret

POLL_SECONDS: Final = 0.2
PROBE_SECONDS: Final = 0.5  # between two asks of /healthz while starting
READY_WITHIN_SECONDS: Final = 300.0  # then "not ready" is said once (the run goes on)
# A running pass finishes within this; past it the worker's whole group is killed (an
# interrupted pass leaves the old list, and the pass stays owed).
WORKER_STOP_SECONDS: Final = 20.0
# Past gunicorn's own graceful_timeout (30 s, config/gunicorn.py): it ends its requests first.
WEB_STOP_SECONDS: Final = 35.0
BACKOFF_MAX_SECONDS: Final = 60
STOP_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class StopRequest:
    """The signal handler: records the first stop signal, does nothing else."""

    def __init__(self) -> None:
        self.signal_number = 0

    def __call__(self, signal_number: int, frame: FrameType | None) -> None:
        if not self.signal_number:
            self.signal_number = signal_number

    @property
    def asked(self) -> bool:
        return self.signal_number != 0


class Child:
    """A process the launcher started, in a process group of its own (its pid is its group id).
    ``stop_seconds``: how long it may take to stop once asked."""

    def __init__(
        self,
        args: Sequence[str],
        *,
        stop_seconds: float = WEB_STOP_SECONDS,
        env: dict[str, str] | None = None,
        pass_fds: Sequence[int] = (),
    ) -> None:
        self.process = subprocess.Popen(  # noqa: S603 - our own commands, no shell
            args, cwd=ROOT, env=env, pass_fds=pass_fds, process_group=0
        )
        self.started = time.monotonic()
        self.stop_seconds = stop_seconds

    @property
    def pid(self) -> int:
        return self.process.pid

    def exited(self) -> bool:
        """Whether it ended, without reaping it: until ``reap``, its pid and group id stay ours."""
        if self.process.returncode is not None:
            return True
        found = os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        return found is not None

    def terminate(self) -> None:
        """SIGTERM to its main process alone, which stops the rest of it in order."""
        if not self.exited():
            os.kill(self.pid, signal.SIGTERM)

    def reap(self) -> int:
        """Once it ended (or to end it): SIGKILL to whatever is left of its group (a pool
        process, a gunicorn worker), then collect its exit status."""
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):  # nothing left of it
                os.killpg(self.pid, signal.SIGKILL)
        return self.process.wait()


def listen_on(port: int) -> socket.socket:
    """The web server's socket, bound and listening. SO_REUSEADDR as gunicorn's own: a port
    whose last connections are still closing (TIME_WAIT) is free, one with a listener is not."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", port))
        listener.listen(2048)
    except OSError:
        listener.close()
        raise
    return listener


def is_ours(port: int, token: str) -> bool:
    """``/healthz`` answers 200 on the port and says it is the server given ``token``. Straight
    to the port (http.client: no HTTP proxy from the environment in between)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
    try:
        connection.request("GET", "/healthz", headers={RUN_HEADER: token})
        response = connection.getresponse()
        return response.status == 200 and response.getheader(RUN_HEADER) == "ours"
    except (OSError, http.client.HTTPException):  # not up yet, not answering, not HTTP
        return False
    finally:
        connection.close()


def say(text: str, *, error: bool = False) -> None:
    print(text, file=sys.stderr if error else sys.stdout, flush=True)


class Launcher:
    def __init__(self, *, port: int, data_dir: str, stop: StopRequest, held: int) -> None:
        self.port = port
        self.data_dir = data_dir
        # The data folder's lock, shared with each child: it is held while any part runs.
        self.held = held
        self.stop = stop
        self.python = sys.executable
        self.children: list[Child] = []
        self.worker: Child | None = None
        self.backoff, self.restarts, self.restart_at = 1, 0, 0.0

    def start(self, args: Sequence[str], **options: Any) -> Child:
        """Start a child (``Child``'s options) and keep it, for ``stop_everything``."""
        options["pass_fds"] = (*options.get("pass_fds", ()), self.held)
        child = Child(args, **options)
        self.children.append(child)
        return child

    def wait_until(self, done: Callable[[], bool]) -> bool:
        """Poll ``done`` until it holds (True) or a stop is asked (False)."""
        while not done():
            if self.stop.asked:
                return False
            time.sleep(POLL_SECONDS)
        return True

    def run_to_end(self, args: Sequence[str]) -> int | None:
        """Run a command to its end; None when a stop was asked meanwhile."""
        child = self.start(args)
        if not self.wait_until(child.exited):
            return None
        return child.reap()

    def serve(self, listener: socket.socket) -> int:
        """Start everything, then watch it until a stop is asked (128 + the signal's number) or
        the web server stops (1)."""
        migrated = self.run_to_end([self.python, "manage.py", "migrate", "--noinput"])
        if migrated is None:
            return 128 + self.stop.signal_number
        if migrated != 0:
            return migrated
        self.start_worker()
        token = secrets.token_urlsafe(32)
        web = self.start(
            [
                *(self.python, "-m", "gunicorn", "-c", "config/gunicorn.py"),
                *("--bind", f"fd://{listener.fileno()}", "--workers", "1", "config.wsgi"),
            ],
            env={**os.environ, RUN_TOKEN_ENV: token},
            pass_fds=(listener.fileno(),),
        )
        listener.close()  # gunicorn holds it now: once it ends, the port is free
        url = f"http://127.0.0.1:{self.port}"
        say(f"Whizi is starting on {url} (web server and worker)...")
        ready, told_not_ready = False, False
        ready_by, next_probe = time.monotonic() + READY_WITHIN_SECONDS, 0.0
        while not self.stop.asked:
            if web.exited():
                say("whizi: the web server stopped", error=True)
                return 1
            if not self.keep_worker():
                break
            if not ready and time.monotonic() >= next_probe:
                if is_ours(self.port, token):
                    ready = True
                    say(f"Whizi is ready on {url} (Ctrl-C stops it)")
                elif time.monotonic() >= ready_by and not told_not_ready:
                    told_not_ready = True
                    say(f"whizi: not ready after {READY_WITHIN_SECONDS:.0f} s (see /healthz)")
                next_probe = time.monotonic() + PROBE_SECONDS
            time.sleep(POLL_SECONDS)
        return 128 + self.stop.signal_number

    def start_worker(self) -> None:
        self.worker = self.start(
            [
                *(self.python, "-m", "celery", "-A", "config", "worker", "--beat"),
                *("--queues", "default,memory", "--concurrency", "2"),
                *("--without-gossip", "--without-mingle", "--loglevel", "INFO"),
                *("--schedule", os.path.join(self.data_dir, "celerybeat-schedule")),
            ],
            stop_seconds=WORKER_STOP_SECONDS,
        )

    def keep_worker(self) -> bool:
        """A worker that ended is reaped, and restarted after its backoff; False when a stop
        was asked meanwhile."""
        now = time.monotonic()
        if self.worker is not None and self.worker.exited():
            self.worker.reap()
            if now - self.worker.started >= 60:
                self.backoff = 1
            self.worker, self.restart_at = None, now + self.backoff
            self.restarts += 1
            say(
                f"whizi: the worker stopped; restart #{self.restarts} in {self.backoff}s"
                " (the web server keeps serving)",
                error=True,
            )
        if self.worker is None and now >= self.restart_at:
            # Its leases released and every owed pass sent again: no other worker runs now.
            if self.run_to_end([self.python, "manage.py", "resume_memory_passes"]) is None:
                return False
            self.start_worker()
            self.backoff = min(self.backoff * 2, BACKOFF_MAX_SECONDS)
        return True

    def stop_everything(self) -> None:
        """Every child not yet reaped gets SIGTERM and its time to stop, then its group is
        killed and it is reaped. Signals meanwhile are only recorded, as ever."""
        running = [child for child in self.children if child.process.returncode is None]
        asked_at = time.monotonic()
        for child in running:
            child.terminate()
        for child in running:
            while not child.exited() and time.monotonic() < asked_at + child.stop_seconds:
                time.sleep(POLL_SECONDS)
            child.reap()


def main() -> int:
    stop = StopRequest()
    for signal_number in STOP_SIGNALS:
        signal.signal(signal_number, stop)
    port = int(os.environ.get("PORT", "8000"))
    # Absolute, so that every child finds it whatever its working directory.
    data_dir = os.environ["DATA_DIR"] = str(Path(os.environ.get("DATA_DIR", "./var")).resolve())
    try:
        listener = listen_on(port)
    except OSError as error:
        say(
            f"whizi: cannot listen on 127.0.0.1:{port}: {error.strerror}. Is an earlier"
            " `make run` or another server still running there? Stop it, or choose another"
            " port (PORT=8001 make run).",
            error=True,
        )
        return 1
    for folder in ("queue", "processed", "control"):
        Path(data_dir, "broker", folder).mkdir(parents=True, exist_ok=True)
    held = running.hold(data_dir)  # a restore refuses to run while we hold it
    if held is None:
        say(
            f"whizi: another `make run` uses {data_dir}. Stop it first, or give this one its"
            " own folder (DATA_DIR=…).",
            error=True,
        )
        listener.close()
        return 1
    launcher = Launcher(port=port, data_dir=data_dir, stop=stop, held=held.fileno())
    try:
        return launcher.serve(listener)
    finally:
        listener.close()
        launcher.stop_everything()
        held.close()


if __name__ == "__main__":
    sys.exit(main())
