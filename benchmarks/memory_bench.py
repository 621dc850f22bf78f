"""Memory's cost, measured against no memory at all, through the real stack.

    make bench            (or: .venv/bin/python benchmarks/memory_bench.py [--quick] [--json F])

What runs: a database of its own on PostgreSQL (``BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/whizi_bench``, created and dropped), Redis
(``BENCH_REDIS_URL``, default database 14), the web app under gunicorn with
``config/gunicorn.py`` and production settings (persistent connections included) in processes
of its own, and a real Celery worker (prefork) running the passes. The chat and memory models
are an "instant" litellm provider (``benchmarks/instant.py``) that answers at once and times
itself.

What it prints:
1. A chat request through HTTP, memory on against **no memory path at all** (a temporary
   conversation: no read, no trigger) and against memory switched off, in the same person's
   conversations, requests interleaved one by one. Lists are at the 2,000-token cap and
   conversations run long enough that every third exchange asks for a pass (that request's
   trigger and enqueue are measured; the pass itself runs in the worker before the next request,
   so it slows no one). Each run gives a ratio and a difference of medians; the table shows their
   median and range over the runs.
2. A pass's own overhead in the worker: the task's time minus the model's time inside the
   provider (and minus the whole model call through litellm), median and range over the runs.
3. Persistent connections against one connection per request (``CONN_MAX_AGE=0``): two web
   servers side by side, requests interleaved.
4. The first chat message a fresh web process serves, against its tenth: with
   ``config/gunicorn.py`` and with a bare ``gunicorn config.wsgi`` (no preload, no warm-up).
5. Tokens per request against conversation length (10, 100, 1,000 exchanges), windowed, for a
   model litellm does not know (the default budget) and for gpt-4o-mini (its own window).
6. The sweeper's query with 10,000 owed passes backing off (EXPLAIN ANALYZE).
7. In-process micro-figures, labelled as such.

The machine is shared: every figure moves between runs, so each comes with its range.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/whizi_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
# Production settings, as a deployment sets them (with the benchmark's instant models).
ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "PRODUCTION": "true",
    "SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1",
    "CHAT_MODELS": "instant/chat,offline/whizi-chat",
    "MEMORY_MODEL": "instant/memory",
    "LOG_LEVEL": "WARNING",
    # The benchmark's one person sends far more than a person may: it measures, it is no attack.
    "THROTTLE_ENABLED": "false",
}
os.environ.update(ENV)

import django  # noqa: E402

HEADERS = {
    "Content-Type": "application/json",
    "Host": "127.0.0.1",
    "X-Forwarded-Proto": "https",  # as behind the TLS proxy production runs behind
}


# --- Figures ----------------------------------------------------------------------------------


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def spread(values: Sequence[float], fmt: Callable[[float], str]) -> str:
    """Median and range, e.g. "1.23 (0.98–1.51)"."""
    return f"{fmt(statistics.median(values))} ({fmt(min(values))}–{fmt(max(values))})"


def ratio(value: float) -> str:
    return f"×{value:.3f}"


@dataclass
class Table:
    rows: list[tuple[str, str]] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def section(self, title: str) -> None:
        self.rows.append((f"-- {title}", ""))

    def add(self, label: str, value: str) -> None:
        self.rows.append((label, value))

    def print(self) -> None:
        width = max(len(label) for label, value in self.rows if value)
        for label, value in self.rows:
            print(f"{label.ljust(width)}  {value}" if value else f"\n{label}")


# --- The stack --------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def admin_dsn() -> tuple[str, str]:
    parts = urlsplit(DATABASE_URL)
    name = parts.path.lstrip("/")
    return urlunsplit(parts._replace(path="/postgres")), name


def create_database() -> None:
    import psycopg

    dsn, name = admin_dsn()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    dsn, name = admin_dsn()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Process:
    """A server of the stack in its own process group, with its log in a file."""

    def __init__(self, args: list[str], log: Path, **env: str) -> None:
        self.log_path = log
        self.log = log.open("w")
        self.proc = subprocess.Popen(
            args,
            cwd=ROOT,
            env={**os.environ, **env},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def wait_for(self, text: str, seconds: float = 60) -> None:
        deadline = time.monotonic() + seconds
        while text not in self.log_path.read_text():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"server did not start: {self.log_path.read_text()[-2000:]}")
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        self.log.close()


def start_web(
    workdir: Path, name: str, *, app: str = "benchmarks.bench_wsgi:application", **env: str
) -> tuple[Process, int]:
    port = free_port()
    web = Process(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"),
            *("--bind", f"127.0.0.1:{port}", "--workers", "1", app),
        ],
        workdir / f"{name}.log",
        **env,
    )
    web.wait_for("Booting worker")
    return web, port


def start_worker(workdir: Path) -> Process:
    worker = Process(
        [
            *(sys.executable, "-m", "celery", "-A", "benchmarks.bench_worker", "worker"),
            *("--queues", "memory,default", "--concurrency", "1", "--pool", "prefork"),
            *("--without-gossip", "--without-mingle", "--loglevel", "INFO"),
        ],
        workdir / "worker.log",
    )
    worker.wait_for("ready.")
    return worker


class Client:
    """One keep-alive HTTP connection to a web server, timing each request end to end."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.headers = {**HEADERS, "Authorization": f"Token {token}"}

    def send(self, conversation_id: int, text: str) -> float:
        body = json.dumps({"content": text})
        started = time.perf_counter()
        self.conn.request(
            "POST", f"/api/v1/conversations/{conversation_id}/messages", body, self.headers
        )
        response = self.conn.getresponse()
        payload = response.read()
        elapsed = time.perf_counter() - started
        if response.status != 201 or not json.loads(payload).get("assistant_message"):
            raise RuntimeError(f"chat request failed: {response.status} {payload[:300]!r}")
        return elapsed

    def close(self) -> None:
        self.conn.close()


# --- Data -------------------------------------------------------------------------------------


def full_list() -> list[str]:
    """About 50 lines of about 55 characters, then more until the 2,000-token cap is reached."""
    from memory.rules import budget

    lines = [f"Fact {i}: enjoys the hiking trail number {i} near the lake" for i in range(400)]
    return budget.positional_cut(lines, 2_000)


def person(name: str, *, memory: bool = True) -> tuple[Any, str]:
    from accounts.models import User
    from accounts.tokens import issue_token
    from memory.services import get_memory, set_enabled, write_lines

    user = User.objects.create_user(username=name, email=f"{name}@example.com")
    write_lines(memory=get_memory(owner_id=user.pk), lines=full_list(), kind="pass")
    if not memory:
        set_enabled(owner_id=user.pk, enabled=False)
    return user, issue_token(user)


def conversation(owner: Any, *, temporary: bool = False, model: str = "instant/chat") -> int:
    from chat.models import Conversation

    return Conversation.objects.create(owner=owner, model=model, temporary=temporary).pk


def wait_until_no_pass_is_owed(owner_ids: Sequence[int], seconds: float = 30) -> None:
    from memory.models import Memory

    deadline = time.monotonic() + seconds
    owed = Memory.objects.filter(owner_id__in=owner_ids, pass_requested=True)
    while owed.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("a pass did not finish in time (is the worker running?)")
        time.sleep(0.005)


def next_pass_record(seconds: float = 30) -> dict[str, float]:
    """The worker's timing of the pass it just ran (a blocking read: no polling that would
    take CPU from the worker while it runs the pass)."""
    import redis

    found = redis.Redis.from_url(REDIS_URL).blpop(["bench:passes"], timeout=seconds)
    if found is None:
        raise RuntimeError("no pass ran in time (is the worker running?)")
    return json.loads(found[1])


# --- 1 and 2: chat requests and passes, through the real stack ---------------------------------

ARMS = ("on", "off", "none")


def bench_requests(port: int, runs: int, exchanges: int, table: Table) -> None:
    """Memory on / memory off / no memory, interleaved request by request, in conversations
    long enough to ask for passes; the worker runs each pass before the next request."""
    anna, anna_token = person("anna")
    bruno, bruno_token = person("bruno", memory=False)
    clients = {"on": Client(port, anna_token), "off": Client(port, bruno_token)}
    clients["none"] = Client(port, anna_token)
    owners = [anna.pk, bruno.pk]

    def new_conversations() -> dict[str, int]:
        return {
            "on": conversation(anna),
            "off": conversation(bruno),
            "none": conversation(anna, temporary=True),
        }

    every = 3  # a pass every six turns: every third exchange

    def exchange(arm: str, conversation_id: int, i: int) -> tuple[float, dict | None]:
        elapsed = clients[arm].send(conversation_id, f"Tell me about {i}")
        record = next_pass_record() if arm == "on" and i % every == 0 else None
        wait_until_no_pass_is_owed(owners)
        return elapsed, record

    # Warm-up: every thread of the web worker opens its database connection, the broker's
    # producer pool fills; nothing here is measured.
    warm = new_conversations()
    for i in range(1, 31):
        for arm in ARMS:
            exchange(arm, warm[arm], i)

    figures = ("ratio_on", "added_on", "mean_added_on", "trigger_added", "trigger_ratio")
    per_run: dict[str, list[float]] = {k: [] for k in (*figures, "ratio_off", "added_off")}
    passes: list[list[dict[str, float]]] = []
    for _ in range(runs):
        timings: dict[str, list[float]] = {arm: [] for arm in ARMS}
        conversations = new_conversations()
        passes.append([])
        for i in range(1, exchanges + 1):
            order = ARMS[i % 3 :] + ARMS[: i % 3]  # no arm always goes first
            for arm in order:
                elapsed, record = exchange(arm, conversations[arm], i)
                timings[arm].append(elapsed)
                if record is not None and record["calls"] >= 1:
                    passes[-1].append(record)
        # Paired: each request against the no-memory request of the same exchange, sent a few
        # milliseconds apart, so the machine's load drifts out of the difference.
        on, off, none = (timings[arm] for arm in ARMS)
        pairs = list(zip(on, none, strict=True))
        per_run["added_on"].append(statistics.median(a - b for a, b in pairs))
        per_run["ratio_on"].append(statistics.median(a / b for a, b in pairs))
        pairs_off = list(zip(off, none, strict=True))
        per_run["added_off"].append(statistics.median(a - b for a, b in pairs_off))
        per_run["ratio_off"].append(statistics.median(a / b for a, b in pairs_off))
        per_run["mean_added_on"].append(statistics.fmean(on) - statistics.fmean(none))
        triggered = [pair for i, pair in enumerate(pairs, 1) if i % every == 0]
        per_run["trigger_added"].append(statistics.median(a - b for a, b in triggered))
        per_run["trigger_ratio"].append(statistics.median(a / b for a, b in triggered))
        table.data.setdefault("request_medians_ms", []).append(
            {arm: round(statistics.median(timings[arm]) * 1000, 3) for arm in ARMS}
        )
    for client in clients.values():
        client.close()

    n = runs * exchanges
    table.section(
        f"1. chat request over HTTP (gunicorn, PostgreSQL, Redis): {runs} runs × {exchanges} "
        f"exchanges per arm ({n} requests each); each memory request paired with the no-memory "
        "request of the same exchange; median (range) over the runs"
    )
    medians = table.data["request_medians_ms"]
    for arm, label in (("none", "no memory (temporary chat)"), ("on", "memory on, list at cap")):
        values = [m[arm] / 1000 for m in medians]
        table.add(f"{label}: request, ms", spread(values, ms))
    table.add("memory on ÷ no memory", spread(per_run["ratio_on"], ratio))
    table.add("memory on − no memory, ms", spread(per_run["added_on"], ms))
    table.add(
        "memory on − no memory, ms (means, passes asked included)",
        spread(per_run["mean_added_on"], ms),
    )
    table.add("request asking for a pass − no memory, ms", spread(per_run["trigger_added"], ms))
    table.add("request asking for a pass ÷ no memory", spread(per_run["trigger_ratio"], ratio))
    table.add("memory off ÷ no memory", spread(per_run["ratio_off"], ratio))
    table.add("memory off − no memory, ms", spread(per_run["added_off"], ms))
    table.data["requests"] = per_run

    own = [statistics.median([r["run"] - r["model"] for r in run]) for run in passes if run]
    task = [statistics.median([r["total"] - r["run"] for r in run]) for run in passes if run]
    beyond = [statistics.median([r["run"] - r["seam"] for r in run]) for run in passes if run]
    total = [statistics.median([r["total"] for r in run]) for run in passes if run]
    count = sum(len(run) for run in passes)
    table.section(
        f"2. memory pass in a real Celery worker (prefork): {count} passes of 6 turns, list at "
        "cap, a third changing it; median (range) over the runs"
    )
    table.add("pass task, total (instant model), ms", spread(total, ms))
    table.add("pass own overhead: run_pass − model's own time, ms", spread(own, ms))
    for kind, label in ((False, "list unchanged"), (True, "list changed")):
        some = [
            statistics.median([r["run"] - r["model"] for r in run if r["changed"] is kind])
            for run in passes
            if any(r["changed"] is kind for r in run)
        ]
        table.add(f"  of which {label}, ms", spread(some, ms))
    table.add("pass own overhead − whole model call (litellm, thread), ms", spread(beyond, ms))
    table.add("the task around the pass (Celery, connection check), ms", spread(task, ms))
    table.data["passes"] = [r for run in passes for r in run]


# --- 3: persistent connections against one per request ----------------------------------------


def bench_connections(workdir: Path, runs: int, exchanges: int, table: Table) -> None:
    web, port = start_web(workdir, "web-conn0", CONN_MAX_AGE="0")
    try:
        persistent_port = table.data["port"]
        owner, token = person("carla")
        clients = {"persistent": Client(persistent_port, token), "per_request": Client(port, token)}
        ratios, added = [], []
        for _ in range(runs):
            conversations = {arm: conversation(owner, temporary=True) for arm in clients}
            timings: dict[str, list[float]] = {arm: [] for arm in clients}
            for i in range(exchanges):
                arms = list(clients) if i % 2 else list(clients)[::-1]
                for arm in arms:
                    timings[arm].append(clients[arm].send(conversations[arm], f"Hello {i}"))
            per_request = statistics.median(timings["per_request"])
            persistent = statistics.median(timings["persistent"])
            ratios.append(per_request / persistent)
            added.append(per_request - persistent)
        for client in clients.values():
            client.close()
    finally:
        web.stop()
    table.section(
        "3. chat request (no memory), one connection per request (CONN_MAX_AGE=0) against "
        "persistent (the default); median (range) over the runs"
    )
    table.add("per request ÷ persistent (medians)", spread(ratios, ratio))
    table.add("per request − persistent, ms", spread(added, ms))


# --- 4: the first message of a fresh web process ----------------------------------------------


def bench_first_request(workdir: Path, processes: int, table: Table) -> None:
    owner, token = person("dora")
    results: dict[str, list[tuple[float, float]]] = {"config": [], "bare": []}
    for i in range(processes):
        for kind in results:
            conversation_id = conversation(owner, model="offline/whizi-chat")
            if kind == "config":
                web, port = start_web(workdir, f"fresh-{i}", app="config.wsgi")
            else:  # what the README used to say: any WSGI server, here gunicorn's defaults
                port = free_port()
                web = Process(
                    [
                        *(sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{port}"),
                        *("--workers", "1", "--no-control-socket", "config.wsgi"),
                    ],
                    workdir / f"bare-{i}.log",
                )
                web.wait_for("Booting worker")
            time.sleep(1.0)  # the worker is up and idle: what follows is the request's cost
            try:
                client = Client(port, token)
                timings = [client.send(conversation_id, f"Hello {n}") for n in range(10)]
                client.close()
            finally:
                web.stop()
            results[kind].append((timings[0], timings[9]))
    table.section(
        f"4. first chat message of a fresh web process (offline chat model), {processes} "
        "processes each; median (range)"
    )
    for kind, label in (("config", "config/gunicorn.py"), ("bare", "bare gunicorn config.wsgi")):
        first = [f for f, _ in results[kind]]
        tenth = [t for _, t in results[kind]]
        table.add(f"{label}: first message, ms", spread(first, ms))
        table.add(f"{label}: tenth message, ms", spread(tenth, ms))
        table.add(f"{label}: first ÷ tenth", spread([f / t for f, t in results[kind]], ratio))
    table.data["first_request"] = results


# --- 5: tokens per request against conversation length ----------------------------------------


def long_conversation(owner: Any, exchanges: int, model: str) -> Any:
    import random

    from chat import context
    from chat.models import Conversation, Message

    words = ["the", "a", "weather", "town", "river", "bread", "music", "train", "garden"]
    rng = random.Random(exchanges)
    conv = Conversation.objects.create(owner=owner, model=model)
    messages = []
    for i in range(exchanges):
        for role, size in (("user", rng.randint(8, 40)), ("assistant", rng.randint(40, 160))):
            text = f"{i}: " + " ".join(rng.choice(words) for _ in range(size))
            messages.append(
                Message(
                    conversation=conv,
                    role=role,
                    content=text,
                    tokens=context.message_tokens(text),
                    memory_state=Message.MemoryState.READ,
                )
            )
    Message.objects.bulk_create(messages, batch_size=1_000)
    turns = 2 * exchanges
    Conversation.objects.filter(pk=conv.pk).update(turns=turns, turns_at_reply=turns)
    conv.refresh_from_db()
    return conv


def bench_tokens(table: Table) -> None:
    from chat import context
    from chat.services import build_request
    from memory.rules import budget

    owner, _ = person("emma")

    def tokens(messages: list[dict[str, str]]) -> int:
        return sum(budget.count_tokens(m["content"]) + context.PER_MESSAGE_TOKENS for m in messages)

    table.section(
        "5. tokens per chat request (o200k, memory at cap) against conversation length; "
        "build_request time in-process"
    )
    for model, label in (
        ("instant/chat", "unknown model"),
        ("openai/gpt-4o-mini", "gpt-4o-mini"),
    ):
        figures = []
        for exchanges in (10, 100, 1_000):
            conv = long_conversation(owner, exchanges, model)
            sent = build_request(conv)
            whole = tokens(sent[:2]) + tokens(
                [{"content": c} for c in conv.messages.values_list("content", flat=True)]
            )
            timings = []
            for _ in range(15):
                started = time.perf_counter()
                build_request(conv)
                timings.append(time.perf_counter() - started)
            figures.append((exchanges, tokens(sent), whole, statistics.median(timings)))
        budget_tokens = context.input_budget(model)
        for exchanges, sent_tokens, whole, seconds in figures:
            table.add(
                f"{label} ({budget_tokens:,}), {exchanges:,} exchanges: sent / whole",
                f"{sent_tokens:,} / {whole:,} tokens, build {ms(seconds)} ms",
            )
        table.data.setdefault("tokens", {})[model] = figures


# --- 6: the sweeper with an outage's backlog ---------------------------------------------------


def bench_sweeper(table: Table) -> None:
    from datetime import timedelta

    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from memory.models import Memory
    from memory.queueing import passes_to_resend

    later = timezone.now() + timedelta(hours=1)
    people = User.objects.bulk_create(
        User(username=f"outage{i}", email=f"outage{i}@example.com") for i in range(10_005)
    )
    # What a memory model outage leaves: every pass owed, backing off, due for the sweeper when
    # its wait is over (``scheduling.release(back_off=True)``).
    Memory.objects.bulk_create(
        (
            Memory(owner=p, pass_requested=True, pass_not_before=later, pass_resend_at=later)
            for p in people[:10_000]
        ),
        batch_size=2_000,
    )
    Memory.objects.bulk_create(Memory(owner=p, pass_requested=True) for p in people[10_000:])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE memory_memory")
    plan = json.loads(passes_to_resend(timezone.now()).explain(analyze=True, format="json"))[0]

    def nodes(node: dict[str, Any]) -> Iterator[dict[str, Any]]:
        yield node
        for child in node.get("Plans", []):
            yield from nodes(child)

    scan = next(n for n in nodes(plan["Plan"]) if n.get("Relation Name") == "memory_memory")
    table.section("6. the sweeper's query: 10,000 owed passes backing off, 5 due (EXPLAIN ANALYZE)")
    table.add(
        "scan / index",
        f"{scan['Node Type']} / {scan.get('Index Name', '-')}",
    )
    table.add(
        "rows returned / removed by filter",
        f"{scan['Actual Rows']} / {scan.get('Rows Removed by Filter', 0)}",
    )
    table.add("execution time (ms)", f"{plan['Execution Time']:.3f}")


# --- 7: in-process micro-figures ---------------------------------------------------------------


def bench_micro(table: Table) -> None:
    from memory.queueing import enqueue_pass
    from memory.rules import budget
    from memory.services import read_for_request

    owner, _ = person("fay")
    reads = []
    for _ in range(300):
        started = time.perf_counter()
        read_for_request(owner_id=owner.pk)
        reads.append(time.perf_counter() - started)
    sends = []
    for _ in range(300):
        started = time.perf_counter()
        enqueue_pass(memory_id=0)  # a task for no memory: the worker is gone, the queue emptied
        sends.append(time.perf_counter() - started)
    lines = full_list()
    counts = []
    for _ in range(300):
        started = time.perf_counter()
        budget.list_tokens(lines)
        counts.append(time.perf_counter() - started)
    table.section("7. in-process micro-figures (one process, one warm connection; not the above)")
    table.add("memory read alone, list at cap, ms (median / p99)", f"{percentiles(reads)}")
    table.add("token count of a full list, ms (median / p99)", f"{percentiles(counts)}")
    table.add("sending a pass task to Redis, ms (median / p99)", f"{percentiles(sends)}")


def percentiles(values: list[float]) -> str:
    ordered = sorted(values[10:])
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{ms(statistics.median(ordered))} / {ms(p99)}"


# --- Main --------------------------------------------------------------------------------------


@contextmanager
def stack(workdir: Path) -> Iterator[tuple[Process, Process, int]]:
    worker = start_worker(workdir)
    try:
        web, port = start_web(workdir, "web")
        try:
            yield worker, web, port
        finally:
            web.stop()
    finally:
        worker.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()
    runs, exchanges, fresh = (2, 6, 1) if args.quick else (7, 24, 3)
    runs = int(os.environ.get("BENCH_RUNS", runs))
    exchanges = int(os.environ.get("BENCH_EXCHANGES", exchanges))

    import redis

    redis.Redis.from_url(REDIS_URL).delete("memory", "default", "bench:passes")
    create_database()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    table = Table()
    try:
        with tempfile.TemporaryDirectory(prefix="whizi-bench-") as tmp:
            workdir = Path(tmp)
            with stack(workdir) as (_, _, port):
                table.data["port"] = port
                bench_requests(port, runs, exchanges, table)
                bench_connections(workdir, runs, exchanges, table)
            bench_first_request(workdir, fresh, table)
        bench_tokens(table)
        bench_sweeper(table)
        bench_micro(table)
    finally:
        drop_database()
        redis.Redis.from_url(REDIS_URL).delete("memory", "default", "bench:passes")
    print(f"memory benchmark, {os.cpu_count()} cores, PostgreSQL + Redis + gunicorn + Celery")
    table.print()
    if args.json:
        table.data.pop("port", None)
        args.json.write_text(json.dumps(table.data, indent=1, default=str))


if __name__ == "__main__":
    main()
