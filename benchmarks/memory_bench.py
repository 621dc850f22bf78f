"""Memory's cost, measured against PostgreSQL and Redis with a model that answers instantly.

    make bench            (or: .venv/bin/python benchmarks/memory_bench.py)

Prints one table:
- the time memory adds to a chat request (median and p99, memory on vs off);
- a pass's own overhead, excluding the model's time;
- passes per second through one real Celery worker (solo pool, Redis broker);
- the cost of counting the tokens of a full list.

It creates and drops its own test database (default ``test_whizi_bench``) and uses Redis
database 14, so it can run beside ``make test``.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings_test")
# Its own database (created as test_whizi_bench) and Redis database, apart from `make test`'s.
os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/whizi_bench")
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/14")

import django

django.setup()

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402

REQUESTS = int(os.environ.get("BENCH_REQUESTS", "300"))
PASSES = int(os.environ.get("BENCH_PASSES", "200"))
LIST = [f"Fact {i}: enjoys hiking trail {i} near the lake" for i in range(50)]

model_seconds: list[float] = []  # inside the provider: the model's own time
seam_seconds: list[float] = []  # the whole call through chat.llm (litellm, timeout thread)


def register_instant_model() -> None:
    """An "instant/..." litellm provider: answers at once, timing itself so the pass overhead
    can exclude it. Chat calls get a short reply; memory calls echo the list plus one line."""
    from chat import llm
    from chat.offline.provider import TextProvider

    def text_for(messages: list[dict[str, Any]]) -> str:
        if messages[0]["content"].startswith("You maintain the long-term memory"):
            data = json.loads(messages[-1]["content"])
            return json.dumps({"lines": [*data["memory"][:49], "Name is Anna"]})
        return "Sure."

    class Instant(TextProvider):
        def answer(self, model: str, messages: list[dict[str, Any]]) -> str:
            started = time.perf_counter()
            text = text_for(messages)
            model_seconds.append(time.perf_counter() - started)
            return text

    lib = llm.litellm()
    lib.custom_provider_map = [
        *lib.custom_provider_map,
        {"provider": "instant", "custom_handler": Instant()},
    ]


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


def bench_chat_requests() -> dict[str, list[float]]:
    """Chat requests for two people, one with memory on and one off, taken in turns so that
    drift on a shared machine hits both alike."""
    from accounts.models import User
    from chat import services as chat
    from memory.models import Memory
    from memory.services import get_memory, set_enabled

    people = {}
    for label, enabled in (("on", True), ("off", False)):
        user = User.objects.create_user(
            username=f"bench-{label}", email=f"bench-{label}@example.com"
        )
        memory = get_memory(owner_id=user.pk)
        Memory.objects.filter(pk=memory.pk).update(lines=LIST, tokens=500)
        set_enabled(owner_id=user.pk, enabled=enabled)
        people[label] = user
    results: dict[str, list[float]] = {"on": [], "off": []}
    conversations = {}
    for i in range(REQUESTS):
        for label, user in people.items():
            # A fresh conversation every 2 messages keeps the history (the model's work) flat.
            if i % 2 == 0:
                conversations[label] = chat.create_conversation(
                    owner_id=user.pk, model="instant/chat"
                )
            started = time.perf_counter()
            exchange = chat.send_message(
                conversation=conversations[label], content=f"Tell me something {i}"
            )
            results[label].append(time.perf_counter() - started)
            assert exchange.assistant_message is not None
    return {label: timings[10:] for label, timings in results.items()}  # after a warm-up


def bench_memory_read() -> list[float]:
    """The memory read of one chat request on its own (the bounded, fail-open read)."""
    from accounts.models import User
    from memory.services import read_for_request

    user = User.objects.get(username="bench-on")
    timings = []
    for _ in range(REQUESTS):
        started = time.perf_counter()
        read_for_request(owner_id=user.pk)
        timings.append(time.perf_counter() - started)
    return timings[10:]


def time_the_seam() -> None:
    """Measure (only here, in the benchmark) the time spent in chat.llm.complete."""
    from chat import llm

    complete = llm.complete

    def timed(**kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return complete(**kwargs)
        finally:
            seam_seconds.append(time.perf_counter() - started)

    llm.complete = timed


def bench_pass_overhead() -> tuple[list[float], list[float], list[float]]:
    from accounts.models import User
    from chat.models import Conversation, Message
    from memory import passes
    from memory.models import Memory
    from memory.services import get_memory

    user = User.objects.create_user(username="bench-pass", email="bench-pass@example.com")
    memory = get_memory(owner_id=user.pk)
    Memory.objects.filter(pk=memory.pk).update(lines=LIST, tokens=500)
    conversation = Conversation.objects.create(owner=user, model="instant/chat")
    time_the_seam()
    totals, overheads, beyond_seam = [], [], []
    for i in range(PASSES):
        Message.objects.create(
            conversation=conversation, role="user", content=f"My name is Anna, fact {i}"
        )
        Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
        model_seconds.clear()
        seam_seconds.clear()
        started = time.perf_counter()
        passes.run_pass(memory_id=memory.pk)
        total = time.perf_counter() - started
        totals.append(total)
        overheads.append(total - sum(model_seconds))
        beyond_seam.append(total - sum(seam_seconds))
    return totals[10:], overheads[10:], beyond_seam[10:]


def bench_worker_throughput() -> float:
    import redis
    from celery.contrib.testing.worker import start_worker

    from accounts.models import User
    from chat.models import Conversation, Message
    from config.celery import app
    from memory.models import Memory
    from memory.services import enqueue_pass, get_memory

    redis.Redis.from_url(settings.REDIS_URL).delete("memory")
    memory_ids = []
    for i in range(PASSES):
        user = User.objects.create_user(username=f"bench-w{i}", email=f"bench-w{i}@example.com")
        memory = get_memory(owner_id=user.pk)
        conversation = Conversation.objects.create(owner=user, model="instant/chat")
        Message.objects.create(conversation=conversation, role="user", content="My name is Anna")
        Memory.objects.filter(pk=memory.pk).update(pass_requested=True)
        memory_ids.append(memory.pk)
    with start_worker(
        app, pool="solo", queues=["memory"], perform_ping_check=False, shutdown_timeout=30
    ):
        started = time.perf_counter()
        for memory_id in memory_ids:
            enqueue_pass(memory_id=memory_id)
        while Memory.objects.filter(pk__in=memory_ids, pass_requested=True).exists():
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
    return len(memory_ids) / elapsed


def bench_token_count() -> list[float]:
    from memory import budget

    full = [f"Fact {i}: enjoys hiking trail number {i} near the lake" for i in range(200)]
    full = budget.positional_cut(full, settings.MEMORY_TOKEN_LIMIT)
    budget.list_tokens(full)
    timings = []
    for _ in range(500):
        started = time.perf_counter()
        budget.list_tokens(full)
        timings.append(time.perf_counter() - started)
    return timings


def main() -> None:
    settings.CHAT_MODELS = [*settings.CHAT_MODELS, "instant/chat"]
    settings.MEMORY_MODEL = "instant/memory"
    register_instant_model()
    name = connection.creation.create_test_db(verbosity=0, autoclobber=True, keepdb=False)
    try:
        chat = bench_chat_requests()
        reads = bench_memory_read()
        totals, overheads, beyond_seam = bench_pass_overhead()
        throughput = bench_worker_throughput()
        tokens = bench_token_count()
    finally:
        connection.creation.destroy_test_db(name, verbosity=0)

    on, off = chat["on"], chat["off"]
    median_off = statistics.median(off)
    rows = [
        (
            "chat request, memory on (median / p99)",
            f"{ms(statistics.median(on))} / {ms(pct(on, 99))}",
        ),
        (
            "chat request, memory off (median / p99)",
            f"{ms(statistics.median(off))} / {ms(pct(off, 99))}",
        ),
        ("added by memory (median of on minus off)", ms(statistics.median(on) - median_off)),
        (
            "memory read alone (median / p99)",
            f"{ms(statistics.median(reads))} / {ms(pct(reads, 99))}",
        ),
        ("pass, total with instant model (median)", ms(statistics.median(totals))),
        (
            "pass, own overhead excl. model (median / p99)",
            f"{ms(statistics.median(overheads))} / {ms(pct(overheads, 99))}",
        ),
        (
            "pass, overhead excl. the whole model call (median)",
            ms(statistics.median(beyond_seam)),
        ),
        ("passes per second, one solo worker", f"{throughput:.1f}"),
        ("token count of a full list (median)", ms(statistics.median(tokens))),
    ]
    width = max(len(r[0]) for r in rows)
    print(f"memory benchmark: {REQUESTS} chat requests per mode, {PASSES} passes,", end=" ")
    print(f"{connection.vendor} + redis")
    print(f"{'measure'.ljust(width)}  value")
    print(f"{'-' * width}  {'-' * 24}")
    for label, value in rows:
        print(f"{label.ljust(width)}  {value}")


if __name__ == "__main__":
    main()
