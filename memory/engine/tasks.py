"""Memory's Celery tasks: ids in, one service call, nothing returned or stored as a result."""

from __future__ import annotations

from celery import Task, shared_task
from django.conf import settings

from memory import queueing
from memory.engine import passes


class PassCrashed(Exception):
    """A pass stopped on an unexpected error; the message is the error's kind only."""


# The task's limits follow the model's: room for four calls (a rewrite, its JSON-mode retry, a
# condense and a split) and the writes, never under five minutes. A slow local model is not
# killed mid-pass (nor marked failing) by a limit shorter than its own timeout.
_PASS_TIME_LIMIT = max(300, round(4 * settings.MEMORY_MODEL_TIMEOUT) + 60)
# Crashes (bug, database error, soft time limit) are retried this many times, then dropped
# (turns stay unread). A constant: the task's ``max_retries`` is typed as possibly None.
_PASS_RETRIES = 4


@shared_task(
    name=queueing.RUN_PASS_TASK,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=_PASS_RETRIES,
    soft_time_limit=_PASS_TIME_LIMIT - 30,
    time_limit=_PASS_TIME_LIMIT,
)
def run_memory_pass(self: Task, memory_id: int) -> None:
    """Run one memory's owed pass. Transient failures (model failing, lost race) back off in
    the database and the sweeper resends; only crashes retry here, dropped past the limit."""
    backoff = min(600, 15 * 2**self.request.retries)
    try:
        passes.run_pass(memory_id=memory_id, retry_in=backoff)
    except Exception as exc:  # noqa: BLE001 - see below
        # A crash's message may quote the values it choked on, so log only its kind (retried
        # outside this block, so it is no exception's context). The pass stays owed; past the
        # retries it is dropped, so work that always crashes cannot block later turns.
        crashed = PassCrashed(type(exc).__name__)
    else:
        return
    if self.request.retries >= _PASS_RETRIES:
        passes.drop_pass(memory_id=memory_id)
        return
    raise self.retry(countdown=backoff, exc=crashed)


@shared_task(name="memory.sweep_owed_passes", ignore_result=True)
def sweep_owed_passes() -> None:
    """Celery beat: send owed passes no queued task will run."""
    queueing.sweep_owed_passes()
