"""Soak test: many guests chatting at once, and every remember request must be kept.

    .venv/bin/python benchmarks/soak.py                 # embedded, as `make run` (SQLite, files)
    .venv/bin/python benchmarks/soak.py --stack postgres # PostgreSQL + Redis, web + worker apart
    .venv/bin/python benchmarks/soak.py --kill-worker 3  # and kill the worker 3 times meanwhile

It starts the product itself (embedded: ``bin/run`` with a fresh ``DATA_DIR``; postgres: a
``whizi_soak`` database, Redis database 9, gunicorn with ``config/gunicorn.py`` and a separate
Celery worker), then ``--guests`` guests (20) each send ``--messages`` messages (100) through the
API at the same time; every fifth message is "Remember that I like <word>" with a word of its
own. When every turn has been read and no pass is owed, it counts the "Likes <word>" lines each
guest's memory holds.

Prints: messages sent and failed, remembers sent / kept / lost, passes run, worker deaths and
restarts, turns left unread, and how long the backlog took to drain. Not a test: a script to
run by hand (it takes a minute or two), never in CI.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORDS = [
    *("tea", "kites", "jazz", "chess", "sailing", "opera", "cycling", "pottery", "sushi"),
    *("tango", "hiking", "origami", "baking", "karate", "poetry", "gardening", "cricket"),
    *("yoga", "rowing", "fencing"),
]
CHATTER = [
    "How are you today?",
    "What's a good way to spend a rainy afternoon?",
    "Tell me something interesting.",
    "Thanks, that helps.",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port: int, method: str, path: str, body: dict | None = None, token: str = "") -> tuple:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json"}
        | ({"Authorization": f"Token {token}"} if token else {}),
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, None


class Stack:
    """The product under test, started and stopped by this script."""

    def __init__(self, kind: str, workdir: Path) -> None:
        self.kind = kind
        self.port = free_port()
        self.workdir = workdir
        self.log = (workdir / "stack.log").open("w")
        self.env = {k: v for k, v in os.environ.items() if k not in ("DJANGO_SETTINGS_MODULE",)}
        self.env |= {"DATA_DIR": str(workdir / "var"), "PORT": str(self.port), "PY": sys.executable}
        # 20 guests from one address sending 100 messages each is the load, not an attack.
        self.env["THROTTLE_ENABLED"] = "false"
        self.worker: subprocess.Popen | None = None
        self.deaths = 0
        if kind == "embedded":
            for key in ("DATABASE_URL", "REDIS_URL", "PRODUCTION", "TESTING"):
                self.env.pop(key, None)
        else:
            self.env |= {
                "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/whizi_soak",
                "REDIS_URL": "redis://127.0.0.1:6379/9",
                "PRODUCTION": "false",
                "SECRET_KEY": "soak",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
            }
        self.processes: list[subprocess.Popen] = []

    def start(self) -> None:
        py = sys.executable
        if self.kind == "embedded":
            self.processes.append(self._spawn(["bin/run"]))
        else:
            _recreate_postgres_database("whizi_soak")
            import redis

            redis.Redis.from_url(self.env["REDIS_URL"]).flushdb()
            subprocess.run([py, "manage.py", "migrate", "-v0"], cwd=ROOT, env=self.env, check=True)
            self.processes.append(
                self._spawn(
                    [
                        *(py, "-m", "gunicorn", "-c", "config/gunicorn.py"),
                        *("--bind", f"127.0.0.1:{self.port}", "config.wsgi"),
                    ]
                )
            )
            self.worker = self._start_worker()
            threading.Thread(target=self._supervise, daemon=True).start()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                if call(self.port, "GET", "/healthz")[0] == 200:
                    return
            except OSError:
                pass
            time.sleep(0.5)
        raise SystemExit(f"the stack did not start; see {self.log.name}")

    def _spawn(self, args: list[str]) -> subprocess.Popen:
        return subprocess.Popen(
            args, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def _start_worker(self) -> subprocess.Popen:
        args = [sys.executable, "-m", "celery", "-A", "config", "worker", "--beat", "-Q"]
        args += ["default,memory", "-c", "2", "--schedule", str(self.workdir / "beat")]
        return self._spawn(args)

    def _supervise(self) -> None:
        while self.worker is not None:
            if self.worker.poll() is not None:
                self.deaths += 1
                subprocess.run(
                    [sys.executable, "manage.py", "resume_memory_passes"],
                    cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT,
                )  # fmt: skip
                self.worker = self._start_worker()
            time.sleep(0.5)

    def worker_pid(self) -> int | None:
        if self.worker is not None:
            return self.worker.pid
        out = subprocess.run(
            ["ps", "-o", "pid=,args=", "--ppid", str(self.processes[0].pid)],
            capture_output=True, text=True,
        ).stdout  # fmt: skip
        pids = [int(line.split()[0]) for line in out.splitlines() if "celery" in line]
        return pids[0] if pids else None

    def restarts(self) -> int:
        if self.kind == "embedded":
            return (self.workdir / "stack.log").read_text().count("the worker stopped; restart")
        return self.deaths

    def stop(self) -> None:
        if self.worker is not None:
            worker, self.worker = self.worker, None
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=60)
        for process in self.processes:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=60)
        self.log.close()


def _recreate_postgres_database(name: str) -> None:
    import psycopg

    with psycopg.connect("postgresql://postgres@127.0.0.1:5432/postgres", autocommit=True) as c:
        c.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        c.execute(f"CREATE DATABASE {name}")


def guest_session(port: int, messages: int, results: dict, index: int) -> None:
    status, body = call(port, "POST", "/api/v1/auth/guest")
    token = body["token"]
    _, conversation = call(port, "POST", "/api/v1/conversations", {}, token)
    sent = Counter()
    remembered = []
    for i in range(messages):
        if i % 5 == 4:
            word = WORDS[(i // 5) % len(WORDS)]
            text = f"Remember that I like {word}"
            remembered.append(word)
        else:
            text = CHATTER[i % len(CHATTER)]
        status, _ = call(
            port, "POST", f"/api/v1/conversations/{conversation['id']}/messages", {"content": text},
            token,
        )  # fmt: skip
        sent[status] += 1
    results[index] = {"token": token, "sent": sent, "remembered": remembered}


def ask_database(env: dict[str, str], code: str) -> str:
    """Run ``code`` with Django set up against the stack's database; its printed output."""
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + code],
        cwd=ROOT,
        env=env | {"DJANGO_SETTINGS_MODULE": "config.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def drained(env: dict[str, str]) -> tuple[bool, int]:
    """Whether every turn has been read and no pass is owed."""
    unread, owed = ask_database(
        env,
        "from chat.models import Message\nfrom memory.models import Memory\n"
        "print(Message.objects.filter(memory_state=0, conversation__temporary=False).count(),"
        " Memory.objects.filter(pass_requested=True).count())",
    ).split()
    return int(unread) == 0 and int(owed) == 0, int(unread)


def passes_run(env: dict[str, str]) -> Counter:
    """Memory events by kind and outcome."""
    out = ask_database(
        env,
        "import json\nfrom django.db.models import Count\nfrom memory.models import MemoryEvent\n"
        "rows = MemoryEvent.objects.values('kind', 'outcome').annotate(n=Count('id'))\n"
        "print(json.dumps({f\"{r['kind']}:{r['outcome']}\": r['n'] for r in rows}))",
    )
    return Counter(json.loads(out))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--stack", choices=["embedded", "postgres"], default="embedded")
    parser.add_argument("--guests", type=int, default=20)
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--kill-worker", type=int, default=0, help="kill the worker N times")
    parser.add_argument("--drain-timeout", type=float, default=600)
    args = parser.parse_args()

    workdir = Path(tempfile.mkdtemp(prefix="whizi-soak-"))
    stack = Stack(args.stack, workdir)
    stack.start()
    results: dict[int, dict] = {}
    started = time.monotonic()
    try:
        guests = [
            threading.Thread(target=guest_session, args=(stack.port, args.messages, results, g))
            for g in range(args.guests)
        ]
        for thread in guests:
            thread.start()
        killed = 0
        while any(t.is_alive() for t in guests):
            if killed < args.kill_worker and time.monotonic() - started > 5 * (killed + 1):
                pid = stack.worker_pid()
                if pid:
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
            time.sleep(0.2)
        sending = time.monotonic() - started
        deadline = time.monotonic() + args.drain_timeout
        done, unread = drained(stack.env)
        while not done and time.monotonic() < deadline:
            time.sleep(1)
            done, unread = drained(stack.env)
        drain = time.monotonic() - started - sending
        kept = lost = 0
        for result in results.values():
            _, memory = call(stack.port, "GET", "/api/v1/memory", token=result["token"])
            lines = set(memory["lines"]) if memory else set()
            for word in result["remembered"]:
                if f"Likes {word}" in lines:
                    kept += 1
                else:
                    lost += 1
        events = passes_run(stack.env)
        restarts = stack.restarts()
    finally:
        stack.stop()
    sent = sum((r["sent"] for r in results.values()), Counter())
    print(f"stack: {args.stack}; {args.guests} guests × {args.messages} messages")
    print(f"messages: {sum(sent.values())} sent, by status {dict(sorted(sent.items()))}")
    print(f"remembers: {kept + lost} sent, {kept} kept, {lost} lost")
    print(
        f"passes run: {sum(n for k, n in events.items() if k.startswith('pass:'))} {dict(events)}"
    )
    print(f"worker: {killed} killed by this script, {restarts} restarted")
    print(f"drained: {done} ({unread} turns unread); sending {sending:.1f}s, draining {drain:.1f}s")
    shutil.rmtree(workdir, ignore_errors=True)
    sys.exit(0 if lost == 0 and done and set(sent) == {201} else 1)


if __name__ == "__main__":
    main()
