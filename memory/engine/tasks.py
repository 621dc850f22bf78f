"""Memory's Celery tasks: ids in, one service call, nothing returned or stored as a result."""

from __future__ import annotations

from celery import Task, shared_task

from memory import queueing
from memory.engine import passes


class PassCrashed(Exception):
    """A pass stopped on an unexpected error; the message is the error's kind only."""


# The task's hard limit sits above two model calls (rewrite + condense) and the writes.
_PASS_TIME_LIMIT = 300
# A pass that crashed (a bug, a database error, the soft time limit) is retried this many
# times, then dropped (its turns stay unread, tried again later). A constant, since the task's
# ``max_retries`` may be None (retry for ever) as far as its type says.
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
    """Run the owed pass of one memory. A failure that may pass (the memory model failing, a
    lost race) backs off in the database and the sweeper sends the pass again when the wait is
    over, for as long as it fails; only a crash is retried here, and dropped past its retries."""
    backoff = min(600, 15 * 2**self.request.retries)
    try:
        passes.run_pass(memory_id=memory_id, retry_in=backoff)
    except Exception as exc:  # noqa: BLE001 - see below
        # Any crash (a database error, a bug, the soft time limit): its message can quote the
        # values it choked on, so Celery logs only its kind (retried outside this block, so the
        # original is no exception's context). The pass stays owed and its list untouched;
        # past the retries it is dropped, so work that crashes it every time is given up in
        # the end instead of blocking the owner's later turns for ever.
        crashed = PassCrashed(type(exc).__name__)
    else:
        return
    if self.request.retries >= _PASS_RETRIES:
        passes.drop_pass(memory_id=memory_id)
        return
    raise self.retry(countdown=backoff, exc=crashed)


@shared_task(name="memory.sweep_owed_passes", ignore_result=True)
def sweep_owed_passes() -> None:
    """Celery beat: enqueue passes owed because the broker was away when they were asked for."""
    queueing.sweep_owed_passes()
