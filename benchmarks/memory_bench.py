"""Memory's whole cost, measured against no memory at all, through the production stack.

    make bench     (or: .venv/bin/python benchmarks/memory_bench.py [--quick] [--json F])
    .venv/bin/python benchmarks/memory_bench.py --scaling     (read and pass, 1,000 → 100,000)

What runs, each in its own process group, on the loopback: PostgreSQL (a database of its own,
``BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/whizi_bench``, created and
dropped), Redis (``BENCH_REDIS_URL``, default database 14), gunicorn with ``config/gunicorn.py``
and production settings, a real Celery worker (prefork, 2 processes, as ``make run``), and the
models: an OpenAI-compatible server (``benchmarks/model_server.py``) that answers at once,
reached through litellm's ``openai`` provider over HTTP, as a hosted provider is. It starts
what it needs and stops it; PostgreSQL and Redis must be running.

What it prints, every figure a ratio or a difference with its median and range over runs:
1. Throughput under load: 1, 8, 32 and 64 clients, each with its own account and a list at the
   2,000-token cap, send chat messages without waiting for passes; a phase ends when every
   pass it owed is done (the drain counts). Memory on against no memory (the same people's
   temporary chats), in interleaved A-B-B-A phases. CPU per request of each process group
   (web, worker, PostgreSQL, Redis) from /proc, and the load average around each client count.
2. One chat request, memory on / off / none interleaved one by one, each pass run before the
   next request: the latency memory adds.
3. A pass in the worker: wall and CPU time outside its model call, round trips to PostgreSQL,
   input and output tokens.
4. Persistent connections against one connection per request (``CONN_MAX_AGE=0``).
5. The first chat message of a fresh web process against its tenth, on the offline model and
   on the hosted path, with ``config/gunicorn.py``; and with a bare ``gunicorn config.wsgi``.
6. Tokens per chat request against conversation length (10, 100, 1,000 exchanges), for a model
   litellm does not know and for gpt-4o-mini, and the share that is a cacheable prefix.
7. The sweeper's query with 10,000 owed passes backing off (EXPLAIN ANALYZE).
8. In-process micro-figures, labelled as such.

The machine may be shared: figures move between runs, so each comes with its range, and the
load average is printed beside them.
"""

from __future__ import annotations

import argparse
import http.client
import json
import math
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import cpu  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


DATABASE_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/whizi_bench"
)
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")
MODEL_PORT = free_port()
MODELS = f"http://127.0.0.1:{MODEL_PORT}/v1"
# Names litellm's map knows, as a deployment's are (an unknown name costs litellm a failed price
# lookup on every call), served by the local server.
CHAT_MODEL = "openai/gpt-4o-mini"
# Production settings, as a deployment sets them, with the benchmark's hosted models.
ENV = {
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "DATABASE_URL": DATABASE_URL,
    "REDIS_URL": REDIS_URL,
    "PRODUCTION": "true",
    "SECRET_KEY": "benchmark-only-secret-key-0123456789-abcdefghijklmnop",
    "ALLOWED_HOSTS": "127.0.0.1",
    "CHAT_MODELS": f"{CHAT_MODEL},offline/whizi-chat",
    "OPENAI_API_BASE": MODELS,
    "OPENAI_API_KEY": "bench-key",
    "MEMORY_MODEL": "openai/gpt-4.1-mini",
    "MEMORY_MODEL_API_BASE": MODELS,
    "MEMORY_MODEL_API_KEY": "bench-key",
    "LOG_LEVEL": "WARNING",
    # The benchmark's people send far more than a person may: it measures, it is no attack.
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

    @property
    def group(self) -> cpu.Group:
        return cpu.in_process_group(self.proc.pid)

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


def start_models(workdir: Path) -> Process:
    models = Process(
        [sys.executable, "-m", "benchmarks.model_server", str(MODEL_PORT)],
        workdir / "models.log",
    )
    models.wait_for("model server ready")
    return models


def start_web(
    workdir: Path, name: str, *, workers: int | None = None, app: str = "config.wsgi", **env: str
) -> tuple[Process, int]:
    """gunicorn as production runs it (``WEB_CONCURRENCY``: the core count, at least 2)."""
    port = free_port()
    count = ("--workers", str(workers)) if workers else ()
    web = Process(
        [
            *(sys.executable, "-m", "gunicorn", "-c", "config/gunicorn.py"),
            *("--bind", f"127.0.0.1:{port}", *count, app),
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
            *("--queues", "memory,default", "--concurrency", "2", "--pool", "prefork"),
            *("--without-gossip", "--without-mingle", "--loglevel", "INFO"),
        ],
        workdir / "worker.log",
    )
    worker.wait_for("ready.")
    return worker


class Client:
    """One keep-alive HTTP connection to a web server, timing each request end to end."""

    def __init__(self, port: int, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
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


def conversation(owner: Any, *, temporary: bool = False, model: str = CHAT_MODEL) -> int:
    from chat.models import Conversation

    return Conversation.objects.create(owner=owner, model=model, temporary=temporary).pk


def wait_for_the_drain(owner_ids: Sequence[int], seconds: float = 300) -> None:
    """Until no pass is owed or running for these people (polled: the worker is elsewhere)."""
    from django.db.models import Q

    from memory.models import Memory

    deadline = time.monotonic() + seconds
    busy = Memory.objects.filter(owner_id__in=owner_ids).filter(
        Q(pass_requested=True) | Q(lease_until__isnull=False)
    )
    while busy.exists():
        if time.monotonic() > deadline:
            raise RuntimeError("passes did not drain in time (is the worker running?)")
        time.sleep(0.01)


def pass_records(clear: bool = True) -> list[dict[str, Any]]:
    """The worker's records of the passes it ran since the last call."""
    import redis

    client = redis.Redis.from_url(REDIS_URL)
    raw = client.lrange("bench:passes", 0, -1)
    if clear:
        client.delete("bench:passes")
    return [json.loads(item) for item in raw]


def next_pass_record(seconds: float = 60) -> dict[str, Any]:
    """The record of the next pass the worker finishes (a blocking read: no polling that would
    take CPU from the worker while it runs the pass)."""
    import redis

    found = redis.Redis.from_url(REDIS_URL).blpop(["bench:passes"], timeout=seconds)
    if found is None:
        raise RuntimeError("no pass ran in time (is the worker running?)")
    return json.loads(found[1])


# --- 1: throughput under load -------------------------------------------------------------------


@dataclass
class Phase:
    arm: str
    clients: int
    requests: int
    seconds: float  # from the first request to the end of the drain
    sending: float  # from the first request to the last reply
    cpu: dict[str, float]  # CPU seconds of each process group
    passes: int


def run_phase(
    port: int, people: Sequence[tuple[Any, str]], arm: str, each: int, groups: dict[str, Any]
) -> Phase:
    """Every client sends ``each`` messages in a conversation of its own, as fast as replies
    come, never waiting for a pass; the phase ends when the passes it owed are done."""
    temporary = arm == "none"
    targets = [(token, conversation(user, temporary=temporary)) for user, token in people]
    clients = [Client(port, token) for token, _ in targets]
    start = threading.Barrier(len(clients) + 1)
    failures: list[BaseException] = []

    def client(index: int) -> None:
        start.wait()
        try:
            for i in range(each):
                clients[index].send(targets[index][1], f"Tell me about {i}")
        except BaseException as error:  # noqa: BLE001 - reported after the join
            failures.append(error)

    threads = [threading.Thread(target=client, args=(i,)) for i in range(len(clients))]
    for thread in threads:
        thread.start()
    pass_records()  # what came before is not this phase's
    before = cpu.cpu_seconds(groups)
    start.wait()
    began = time.perf_counter()
    for thread in threads:
        thread.join()
    sent = time.perf_counter()
    if failures:
        raise failures[0]
    wait_for_the_drain([user.pk for user, _ in people])
    ended = time.perf_counter()
    after = cpu.cpu_seconds(groups)
    for c in clients:
        c.close()
    return Phase(
        arm=arm,
        clients=len(clients),
        requests=len(clients) * each,
        seconds=ended - began,
        sending=sent - began,
        cpu={name: after[name] - before[name] for name in groups},
        passes=len(pass_records()),
    )


def bench_load(
    port: int,
    counts: Sequence[int],
    blocks: int,
    per_phase: int,
    groups: dict[str, Any],
    table: Table,
) -> None:
    table.section(
        f"1. throughput under load: memory on ÷ no memory, passes counted (each phase ends when "
        f"its passes are done); {blocks} A-B-B-A blocks per client count, about {per_phase} "
        "requests a phase; median (range) over the blocks"
    )
    results: dict[int, list[dict[str, float]]] = {}
    for n in counts:
        each = 3 * math.ceil(max(6, per_phase / n) / 3)  # a pass asked every third exchange
        people = [person(f"load{n}-{i}") for i in range(n)]
        run_phase(port, people, "on", 3, groups)  # warm: connections, pools, caches
        run_phase(port, people, "none", 3, groups)
        load_before = cpu.load_average()
        blocks_seen = []
        for _ in range(blocks):
            phases = [
                run_phase(port, people, arm, each, groups) for arm in ("on", "none", "none", "on")
            ]
            on = [p for p in phases if p.arm == "on"]
            none = [p for p in phases if p.arm == "none"]
            blocks_seen.append(_block_figures(on, none))
        results[n] = blocks_seen
        figure = {key: [b[key] for b in blocks_seen] for key in blocks_seen[0]}
        table.add(
            f"{n} clients ({each} messages each): throughput on ÷ none",
            spread(figure["throughput"], ratio),
        )
        table.add(
            f"{n} clients: requests per second, memory on / none",
            f"{spread(figure['rps_on'], lambda v: f'{v:.1f}')} / "
            f"{spread(figure['rps_none'], lambda v: f'{v:.1f}')}",
        )
        table.add(
            f"{n} clients: CPU per request, all groups, on ÷ none",
            spread(figure["cpu_ratio"], ratio),
        )
        for group in groups:
            table.add(
                f"{n} clients: {group} CPU per request, on − none, ms",
                spread(figure[f"added_{group}"], ms),
            )
        table.add(f"{n} clients: passes per memory-on phase", spread(figure["passes"], str))
        table.add(
            f"{n} clients: load average before / after", f"{load_before} / {cpu.load_average()}"
        )
    table.data["load"] = results


def _block_figures(on: list[Phase], none: list[Phase]) -> dict[str, float]:
    def rate(phases: list[Phase]) -> float:
        return sum(p.requests for p in phases) / sum(p.seconds for p in phases)

    def per_request(phases: list[Phase], group: str | None = None) -> float:
        spent = sum(sum(p.cpu.values()) if group is None else p.cpu[group] for p in phases)
        return spent / sum(p.requests for p in phases)

    figures = {
        "throughput": rate(on) / rate(none),
        "rps_on": rate(on),
        "rps_none": rate(none),
        "cpu_ratio": per_request(on) / per_request(none),
        "passes": statistics.fmean(p.passes for p in on),
    }
    for group in on[0].cpu:
        figures[f"added_{group}"] = per_request(on, group) - per_request(none, group)
    return figures


# --- 2 and 3: one chat request, and a pass ------------------------------------------------------

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
        wait_for_the_drain(owners)
        return elapsed, record

    # Warm-up: every thread of the web workers opens its database connection, the broker's
    # producer pool fills; nothing here is measured.
    warm = new_conversations()
    for i in range(1, 31):
        for arm in ARMS:
            exchange(arm, warm[arm], i)

    figures = ("ratio_on", "added_on", "mean_added_on", "trigger_added", "trigger_ratio")
    per_run: dict[str, list[float]] = {k: [] for k in (*figures, "ratio_off", "added_off")}
    passes: list[list[dict[str, Any]]] = []
    from memory.models import MemoryEvent

    first_event = MemoryEvent.objects.order_by("-id").values_list("id", flat=True).first() or 0
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
        f"2. one chat request over HTTP: {runs} runs × {exchanges} exchanges per arm ({n} "
        "requests each), each pass run before the next request; each memory request paired "
        "with the no-memory request of the same exchange; median (range) over the runs"
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
    table.add("memory off − no memory, ms", spread(per_run["added_off"], ms))
    table.data["requests"] = per_run

    count = sum(len(run) for run in passes)
    table.section(
        f"3. a pass in the worker (prefork): {count} passes of 6 turns, list at cap, a third "
        "changing it, the model over HTTP; median (range) over the runs"
    )

    def over_runs(
        value: Callable[[dict[str, Any]], float], outcome: str | None = None
    ) -> list[float]:
        return [
            statistics.median(value(r) for r in run if outcome in (None, r["outcome"]))
            for run in passes
            if any(outcome in (None, r["outcome"]) for r in run)
        ]

    table.add("pass, wall, ms", spread(over_runs(lambda r: r["wall"]), ms))
    table.add(
        "pass, wall outside the model call, ms",
        spread(over_runs(lambda r: r["wall"] - r["call_wall"]), ms),
    )
    table.add(
        "pass, process CPU outside the model call, ms",
        spread(over_runs(lambda r: r["cpu"] - r["call_cpu"]), ms),
    )
    for outcome in ("unchanged", "ok"):
        kind = "unchanged" if outcome == "unchanged" else "changed"
        table.add(
            f"  list {kind}: CPU outside the call, ms",
            spread(over_runs(lambda r: r["cpu"] - r["call_cpu"], outcome), ms),
        )
        table.add(
            f"  list {kind}: round trips",
            spread(over_runs(lambda r: r["round_trips"], outcome), lambda v: f"{v:.0f}"),
        )
    table.add(
        "the model call's own CPU (litellm, HTTP), ms",
        spread(over_runs(lambda r: r["call_cpu"]), ms),
    )
    events = MemoryEvent.objects.filter(id__gt=first_event, kind="pass", owner_id=anna.pk)
    tokens_in = list(events.values_list("model_tokens_in", flat=True))
    tokens_out = list(events.values_list("model_tokens_out", flat=True))
    if tokens_in:
        table.add(
            "tokens per pass, in / out (median)",
            f"{statistics.median(tokens_in):,.0f} / {statistics.median(tokens_out):,.0f}",
        )
    table.data["passes"] = [r for run in passes for r in run]


# --- 4: persistent connections against one per request ----------------------------------------


def bench_connections(
    workdir: Path, persistent_port: int, runs: int, exchanges: int, table: Table
) -> None:
    web, port = start_web(workdir, "web-conn0", workers=1, CONN_MAX_AGE="0")
    try:
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
        "4. chat request (no memory), one connection per request (CONN_MAX_AGE=0) against "
        "persistent (the default); median (range) over the runs"
    )
    table.add("per request ÷ persistent (medians)", spread(ratios, ratio))
    table.add("per request − persistent, ms", spread(added, ms))


# --- 5: the first message of a fresh web process ----------------------------------------------


def bench_first_request(workdir: Path, processes: int, table: Table) -> None:
    owner, token = person("dora")
    kinds = {
        "offline": ("offline/whizi-chat", True),
        "hosted": (CHAT_MODEL, True),
        "bare": ("offline/whizi-chat", False),
    }
    results: dict[str, list[tuple[float, float]]] = {kind: [] for kind in kinds}
    for i in range(processes):
        for kind, (model, configured) in kinds.items():
            conversation_id = conversation(owner, model=model)
            if configured:
                web, port = start_web(workdir, f"fresh-{kind}-{i}", workers=1)
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
            _idle(web)
            try:
                client = Client(port, token)
                timings = [client.send(conversation_id, f"Hello {n}") for n in range(10)]
                client.close()
            finally:
                web.stop()
            results[kind].append((timings[0], timings[9]))
    table.section(
        f"5. first chat message of a fresh web process against its tenth, {processes} processes "
        "each; median (range)"
    )
    labels = {
        "offline": "config/gunicorn.py, offline model",
        "hosted": "config/gunicorn.py, hosted model (HTTP)",
        "bare": "bare gunicorn config.wsgi, offline model",
    }
    for kind, label in labels.items():
        first = [f for f, _ in results[kind]]
        tenth = [t for _, t in results[kind]]
        table.add(f"{label}: first / tenth, ms", f"{spread(first, ms)} / {spread(tenth, ms)}")
        table.add(f"{label}: first ÷ tenth", spread([f / t for f, t in results[kind]], ratio))
    table.data["first_request"] = results


def _idle(web: Process, seconds: float = 30) -> None:
    """Until the server's processes burn no more CPU: its start-up is over, so what follows is
    the request's own cost."""
    deadline = time.monotonic() + seconds
    last = cpu.cpu_seconds({"web": web.group})["web"]
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = cpu.cpu_seconds({"web": web.group})["web"]
        if now == last:
            return
        last = now


# --- 6: tokens per request against conversation length ----------------------------------------


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
    from django.conf import settings

    from chat import context
    from chat.services import build_request
    from memory.rules import budget

    owner, _ = person("emma")

    def tokens(messages: list[dict[str, Any]]) -> int:
        return sum(
            budget.count_tokens(str(m["content"])) + context.PER_MESSAGE_TOKENS for m in messages
        )

    table.section(
        f"6. tokens per chat request (o200k, memory at cap, CHAT_HISTORY_TOKENS "
        f"{settings.CHAT_HISTORY_TOKENS:,}) against conversation length; the cacheable prefix "
        "(system prompt and memory, first and unchanged from reply to reply)"
    )
    for model, label in (
        ("offline/whizi-chat", "unknown model"),
        (CHAT_MODEL, "gpt-4o-mini"),
    ):
        for exchanges in (10, 100, 1_000):
            conv = long_conversation(owner, exchanges, model)
            sent = build_request(conv)
            prefix = tokens([m for m in sent if m["role"] == "system"])
            whole = prefix + tokens(
                [{"content": c} for c in conv.messages.values_list("content", flat=True)]
            )
            timings = []
            for _ in range(15):
                started = time.perf_counter()
                build_request(conv)
                timings.append(time.perf_counter() - started)
            table.add(
                f"{label} (budget {context.input_budget(model):,}), {exchanges:,} exchanges",
                f"{tokens(sent):,} sent of {whole:,}, cacheable {prefix / tokens(sent):.0%}, "
                f"built in {ms(statistics.median(timings))} ms",
            )
            table.data.setdefault("tokens", []).append(
                {
                    "model": model,
                    "exchanges": exchanges,
                    "sent": tokens(sent),
                    "whole": whole,
                    "prefix": prefix,
                }
            )


# --- 7: the sweeper with an outage's backlog ---------------------------------------------------


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
    table.section("7. the sweeper's query: 10,000 owed passes backing off, 5 due (EXPLAIN ANALYZE)")
    table.add(
        "scan / index",
        f"{scan['Node Type']} / {scan.get('Index Name', '-')}",
    )
    table.add(
        "rows returned / removed by filter",
        f"{scan['Actual Rows']} / {scan.get('Rows Removed by Filter', 0)}",
    )
    table.add("execution time (ms)", f"{plan['Execution Time']:.3f}")


# --- 8: in-process micro-figures ---------------------------------------------------------------


def bench_micro(table: Table) -> None:
    from memory.queueing import enqueue_pass
    from memory.rules import budget
    from memory.services import read_for_request

    owner, _ = person("fay")
    reads = _timed(300, lambda: read_for_request(owner_id=owner.pk))
    # A task for no memory: the worker is gone, the queue emptied after.
    sends = _timed(300, lambda: enqueue_pass(memory_id=0))
    lines = full_list()
    counts = _timed(300, lambda: budget.list_tokens(lines))
    table.section("8. in-process micro-figures (one process, one warm connection; not the above)")
    table.add("memory read alone, list at cap, ms (median / p99)", percentiles(reads))
    table.add("token count of a full list, ms (median / p99)", percentiles(counts))
    table.add("sending a pass task to Redis, ms (median / p99)", percentiles(sends))


def _timed(times: int, call: Callable[[], Any]) -> list[float]:
    spent = []
    for _ in range(times):
        started = time.perf_counter()
        call()
        spent.append(time.perf_counter() - started)
    return spent


def percentiles(values: list[float]) -> str:
    ordered = sorted(values[10:])
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    return f"{ms(statistics.median(ordered))} / {ms(p99)}"


# --- Scaling: 1,000 to 100,000 accounts ---------------------------------------------------------


def bench_scaling(scales: Sequence[int], table: Table) -> None:
    """The memory read of a chat request and a whole pass (model over HTTP, in this process), for
    accounts among 1,000, 10,000 and 100,000 others, each with a list and read turns."""
    from django.db import connection

    from accounts.models import User
    from chat.models import Conversation, Message
    from memory.engine import passes
    from memory.models import Memory
    from memory.services import read_for_request

    table.section(
        "scaling: the same work among more accounts (each with 20 lines and 4 read turns); "
        "median (range) of 5 runs of 20"
    )
    lines = full_list()[:20]
    made = 0
    measured: dict[int, dict[str, list[float]]] = {}
    for scale in scales:
        while made < scale:
            batch = min(5_000, scale - made)
            users = User.objects.bulk_create(
                User(username=f"s{made + i}", email=f"s{made + i}@example.com")
                for i in range(batch)
            )
            Memory.objects.bulk_create(Memory(owner=u, lines=lines, tokens=300) for u in users)
            chats = Conversation.objects.bulk_create(
                Conversation(owner=u, model=CHAT_MODEL) for u in users
            )
            Message.objects.bulk_create(
                Message(conversation=c, role=role, content=f"{role} says hello", memory_state=1)
                for c in chats
                for role in ("user", "assistant", "user", "assistant")
            )
            made += batch
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")
        owner, _ = person(f"scale{scale}")
        reads, runs = [], []
        for _ in range(5):
            read = _timed(20, lambda owner=owner: read_for_request(owner_id=owner.pk))
            reads.append(statistics.median(read))
            spent = []
            for i in range(20):
                chat = Conversation.objects.create(owner=owner, model=CHAT_MODEL)
                Message.objects.bulk_create(
                    Message(conversation=chat, role=role, content=f"I like tea number {i}")
                    for role in ("user", "assistant") * 3
                )
                Memory.objects.filter(owner=owner).update(pass_requested=True)
                memory_id = Memory.objects.get(owner=owner).pk
                started = time.perf_counter()
                passes.run_pass(memory_id=memory_id)
                spent.append(time.perf_counter() - started)
            runs.append(statistics.median(spent))
        measured[scale] = {"read": reads, "pass": runs}
        table.add(f"{scale:,} accounts: memory read, ms", spread(reads, ms))
        table.add(f"{scale:,} accounts: pass, ms", spread(runs, ms))
    low, high = measured[scales[0]], measured[scales[-1]]
    for what in ("read", "pass"):
        table.add(
            f"{what}: {scales[-1]:,} ÷ {scales[0]:,} accounts (medians)",
            ratio(statistics.median(high[what]) / statistics.median(low[what])),
        )
    table.data["scaling"] = measured


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


SECTIONS = ("load", "requests", "connections", "first", "tokens", "sweeper", "micro")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs (a smoke test)")
    parser.add_argument("--scaling", action="store_true", help="only the scaling figures")
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    parser.add_argument(
        "--only",
        choices=SECTIONS,
        action="append",
        help="only these sections (repeatable), to iterate on one figure",
    )
    args = parser.parse_args()
    wanted = set(args.only or SECTIONS)
    runs, exchanges, fresh, blocks, per_phase = (
        (2, 6, 1, 1, 48) if args.quick else (5, 24, 3, 3, 192)
    )
    counts = [int(c) for c in os.environ.get("BENCH_CLIENTS", "1,8,32,64").split(",")]
    scales = (1_000, 10_000) if args.quick else (1_000, 10_000, 100_000)

    import redis

    redis.Redis.from_url(REDIS_URL).delete("memory", "default", "bench:passes")
    create_database()
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    table = Table()
    started_load = cpu.load_average()
    try:
        with tempfile.TemporaryDirectory(prefix="whizi-bench-") as tmp:
            workdir = Path(tmp)
            models = start_models(workdir)
            try:
                if args.scaling:
                    bench_scaling(scales, table)
                else:
                    if wanted & {"load", "requests", "connections"}:
                        with stack(workdir) as (worker, web, port):
                            groups = {
                                "web": web.group,
                                "worker": worker.group,
                                "postgres": cpu.named("postgres"),
                                "redis": cpu.named("redis-server"),
                            }
                            if "load" in wanted:
                                bench_load(port, counts, blocks, per_phase, groups, table)
                            if "requests" in wanted:
                                bench_requests(port, runs, exchanges, table)
                            if "connections" in wanted:
                                bench_connections(workdir, port, runs, exchanges, table)
                    if "first" in wanted:
                        bench_first_request(workdir, fresh, table)
                    if "tokens" in wanted:
                        bench_tokens(table)
                    if "sweeper" in wanted:
                        bench_sweeper(table)
                    if "micro" in wanted:
                        bench_micro(table)
            finally:
                models.stop()
    finally:
        drop_database()
        redis.Redis.from_url(REDIS_URL).delete("memory", "default", "bench:passes")
    print(
        f"memory benchmark, {os.cpu_count()} cores, PostgreSQL + Redis + gunicorn + Celery + "
        f"models over HTTP; load average {started_load} at the start, {cpu.load_average()} at "
        "the end"
    )
    table.print()
    if args.json:
        args.json.write_text(json.dumps(table.data, indent=1, default=str))


if __name__ == "__main__":
    main()
