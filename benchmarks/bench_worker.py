"""A real Celery worker (prefork pool) running the product's tasks, plus the benchmark's
instant model and a timing of every pass, pushed to Redis (``bench:passes``) for the
benchmark to read.

    celery -A benchmarks.bench_worker worker -Q memory -c 1
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from celery.signals import task_postrun, task_prerun, worker_init

from benchmarks import instant
from config.celery import app

__all__ = ["app"]

_started: dict[str, float] = {}
_redis: list[Any] = []


_run_seconds: list[float] = []


@worker_init.connect
def _register_the_instant_model(**kwargs: Any) -> None:
    """In the main process, before the pool forks: the instant model, and a timer around the
    pass itself (the task minus Celery's and Django's own work around it)."""
    from memory.engine import passes

    instant.register()
    run_pass = passes.run_pass

    def timed_run_pass(**kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return run_pass(**kwargs)
        finally:
            _run_seconds.append(time.perf_counter() - started)

    passes.run_pass = timed_run_pass


@task_prerun.connect
def _start(task_id: str, task: Any, **kwargs: Any) -> None:
    instant.model_seconds.clear()
    instant.seam_seconds.clear()
    instant.changed.clear()
    _run_seconds.clear()
    _started[task_id] = time.perf_counter()


@task_postrun.connect
def _finish(task_id: str, task: Any, **kwargs: Any) -> None:
    total = time.perf_counter() - _started.pop(task_id)
    if task.name != "memory.run_pass":
        return
    if not _redis:
        import redis

        _redis.append(redis.Redis.from_url(os.environ["REDIS_URL"]))
    record = {
        "total": total,
        "run": sum(_run_seconds),
        "model": sum(instant.model_seconds),
        "seam": sum(instant.seam_seconds),
        "calls": len(instant.model_seconds),
        "changed": any(instant.changed),
    }
    _redis[0].rpush("bench:passes", json.dumps(record))
