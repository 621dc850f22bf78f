"""A real Celery worker (prefork pool) running the product's tasks, with a record of every pass
pushed to Redis (``bench:passes``) for the benchmark to read: its wall and CPU time, the same
for its model call (litellm over HTTP to ``benchmarks.model_server``), its round trips to
PostgreSQL and its outcome.

    celery -A benchmarks.bench_worker worker -Q memory -c 1
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from typing import Any

from celery.signals import worker_init

from config.celery import app

__all__ = ["app"]

_redis: list[Any] = []
# The model calls of the pass running now (one at a time: the pool has one process).
_calls: list[tuple[float, float]] = []


@worker_init.connect
def _time_passes(**kwargs: Any) -> None:
    """In the main process, before the pool forks: timers around the pass and its model call."""
    import llm
    from memory.engine import passes

    complete = llm.complete

    def timed_complete(**kwargs: Any) -> Any:
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            return complete(**kwargs)
        finally:
            _calls.append((time.perf_counter() - wall, time.process_time() - cpu))

    llm.complete = timed_complete
    passes.run_pass = _recorded(passes.run_pass)


def _recorded(run_pass: Callable[..., Any]) -> Callable[..., Any]:
    def recorded(**kwargs: Any) -> Any:
        from django.db import connection

        statements = [0]

        def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
            statements[0] += 1
            return execute(sql, params, many, context)

        # A transaction costs two more: psycopg's BEGIN, and the COMMIT (or ROLLBACK).
        ended = [0]
        commit, rollback = connection._commit, connection._rollback
        connection._commit = lambda: (ended.__setitem__(0, ended[0] + 1), commit())[1]
        connection._rollback = lambda: (ended.__setitem__(0, ended[0] + 1), rollback())[1]
        _calls.clear()
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            with connection.execute_wrapper(count):
                result = run_pass(**kwargs)
        finally:
            del connection._commit, connection._rollback
        record = {
            "wall": time.perf_counter() - wall,
            "cpu": time.process_time() - cpu,
            "call_wall": sum(w for w, _ in _calls),
            "call_cpu": sum(c for _, c in _calls),
            "calls": len(_calls),
            "round_trips": statements[0] + 2 * ended[0],
            "outcome": str(result.outcome),
        }
        if not _redis:
            import redis

            _redis.append(redis.Redis.from_url(os.environ["REDIS_URL"]))
        _redis[0].rpush("bench:passes", json.dumps(record))
        return result

    return recorded
