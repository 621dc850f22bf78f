"""Owing, sending and sweeping memory passes: at most one queued task per owner, a broker that
fails costs a bounded moment (the request is in the database first), and the sweeper resends
only what no queued task will run.
"""

from __future__ import annotations

import logging
import threading
import time
from datetime import datetime

from celery import current_app
from django.conf import settings
from django.db import (
    DatabaseError,
    IntegrityError,
    OperationalError,
    close_old_connections,
    connection,
    transaction,
)
from django.db.models import QuerySet
from django.utils import timezone

from memory import scheduling, turns
from memory.models import Memory

log = logging.getLogger(__name__)

# The pass task's name (``memory.engine.tasks.run_memory_pass``).
RUN_PASS_TASK = "memory.run_pass"  # noqa: S105 - a task name, not a password


def request_pass(*, owner_id: int, memory_id: int | None = None) -> bool:
    """Record that the owner's memory owes a pass, and enqueue it once the caller commits.

    The request lives in the database first, so a broker that is down loses nothing: the
    sweeper enqueues owed passes later. At most one task per owner is in the queue: when a
    pass is already owed (queued or running), the trigger only moves ``pass_requested_at``,
    which makes the pass in flight take one more round. Returns False when memory is off or
    the owner is gone (deleted, or a guest merged away meanwhile).

    ``memory_id``: the owner's memory row, when the caller already read it (a chat request);
    rows never change owner, so it saves looking it up.
    """
    if memory_id is None:
        memory_id = _memory_id(owner_id)
    if memory_id is None:
        return False
    trigger = scheduling.owe(memory_id)
    if trigger is scheduling.Trigger.SEND:
        # The task goes to the broker after commit (and after the response).
        transaction.on_commit(lambda: after_response.send(memory_id))
    return trigger is not scheduling.Trigger.OFF


def request_pass_or_defer(*, owner_id: int, memory_id: int | None = None) -> bool:
    """``request_pass`` inside the caller's transaction (a reply's), waiting at most
    ``MEMORY_TRIGGER_LOCK_TIMEOUT_MS`` for the memory row. False when the pass could not be
    owed now (the row is locked, the table stalled: a migration, a long transaction): nothing
    of it was written, the caller's transaction goes on, and the caller leaves its turns
    pending (``memory.turns.TurnState.PENDING``), which the sweeper settles and owes a pass
    for once memory answers. True when owed, or when there is nothing to owe (memory off)."""
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    # For this savepoint's statements only: its rollback, or the reply's
                    # commit right after, ends it.
                    cursor.execute(
                        "SET LOCAL lock_timeout = %s", [settings.MEMORY_TRIGGER_LOCK_TIMEOUT_MS]
                    )
            request_pass(owner_id=owner_id, memory_id=memory_id)
    except OperationalError:
        log.warning(
            "memory.trigger_deferred owner=%s (turns pending; the sweeper owes it)", owner_id
        )
        return False
    return True


def settle_pending_turns() -> int:
    """Decide the turns said while memory could not be read or told (``TurnState.PENDING``), as
    each owner's memory was when they were said, and owe a pass for those that are now unread.
    Under the memory row's lock, so a switch cannot settle them the other way meanwhile. Stops
    at the first memory still locked or stalled (the next sweep tries again). Returns how many
    passes it owed."""
    owed = 0
    for owner_id in turns.store().owners_with_pending(limit=SWEEP_BATCH):
        try:
            with transaction.atomic():
                memory_id = _memory_id(owner_id)
                if memory_id is None:
                    continue  # the owner is gone: its turns went with it
                memory = (
                    Memory.objects.select_for_update()
                    .filter(pk=memory_id)
                    .values("enabled", "switched_at")
                    .first()
                )
                if memory is None:
                    continue
                unread = turns.store().settle_pending(
                    owner_id, enabled=memory["enabled"], since=memory["switched_at"]
                )
                if unread and request_pass(owner_id=owner_id, memory_id=memory_id):
                    owed += 1
        except OperationalError:
            log.warning("memory.pending_unsettled owner=%s (memory still unavailable)", owner_id)
            break
    return owed


def _memory_id(owner_id: int) -> int | None:
    """The owner's memory row id, created on first use; None when the owner no longer exists."""
    found = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Memory.objects.create(owner_id=owner_id).pk
    except IntegrityError:
        # Created meanwhile by someone else, or the owner was deleted (a guest that signed up).
        return Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()


class BrokerBreaker:
    """After the broker failed once, skip it for a while instead of paying its timeout on every
    reply. Per process on purpose: owed passes are in the database, so a skipped send is only
    late (the sweeper sends it), never lost."""

    def __init__(self, pause_seconds: float) -> None:
        self.pause_seconds = pause_seconds
        self.closed_until = 0.0

    def allows(self) -> bool:
        return time.monotonic() >= self.closed_until

    def trip(self) -> None:
        self.closed_until = time.monotonic() + self.pause_seconds

    def reset(self) -> None:
        self.closed_until = 0.0


broker_breaker = BrokerBreaker(pause_seconds=30)


class AfterResponse:
    """Pass tasks asked for during a web request go to the broker once its response is sent
    (Django's ``request_finished``, which the server sends after the last byte, streamed
    replies included): the person's reply never waits on the broker, not even the time of a
    publish. Outside a request (a task, a command), a pass is sent at once. Per thread, as a
    request is."""

    def __init__(self) -> None:
        self._local = threading.local()

    def start(self, **kwargs: object) -> None:
        self.flush()  # a request that never finished (no server does that) leaves nothing behind
        self._local.pending = []

    def send(self, memory_id: int) -> None:
        pending = getattr(self._local, "pending", None)
        if pending is None:
            enqueue_pass(memory_id=memory_id)
        elif memory_id not in pending:
            pending.append(memory_id)

    def flush(self, **kwargs: object) -> None:
        pending = getattr(self._local, "pending", None) or []
        self._local.pending = None
        if not pending:
            return
        try:
            for memory_id in pending:
                try:
                    enqueue_pass(memory_id=memory_id)
                except DatabaseError:
                    # The broker failed and so did noting it: the pass is owed in the
                    # database all the same, and the sweeper sends it at its resend time.
                    log.warning("memory.enqueue_unrecorded memory=%s", memory_id)
        finally:
            # This runs after Django's own end-of-request cleanup: a connection opened here
            # goes the same way.
            close_old_connections()


after_response = AfterResponse()


def enqueue_pass(*, memory_id: int) -> bool:
    """Send the pass task; a refusing or stalled broker costs a bounded moment (its short
    timeouts, then nothing while the breaker is open), never a reply. A pass not sent is due
    for the sweeper at once."""
    if broker_breaker.allows():
        try:
            # Named, not imported: the task module sits above this one (it calls the pass
            # engine, which owes passes here), and Celery's registry knows it by name.
            current_app.tasks[RUN_PASS_TASK].apply_async(args=(memory_id,), retry=False)
        except Exception:  # noqa: BLE001 - any broker failure: the pass stays owed in the database
            broker_breaker.trip()
            log.warning(
                "memory.enqueue_failed memory=%s (pass owed; the sweeper retries)", memory_id
            )
        else:
            return True
    scheduling.send_failed(memory_id)
    return False


SWEEP_BATCH = 500


def passes_to_resend(now: datetime, *, everything: bool = False) -> QuerySet[Memory, int]:
    """The ids of the owed passes the sweeper sends, the longest due first (a backlog starves
    no one), one batch at most."""
    owed = Memory.objects.owed(now) if everything else Memory.objects.to_resend(now)
    return owed.order_by("pass_resend_at").values_list("pk", flat=True)[:SWEEP_BATCH]


def sweep_owed_passes(*, everything: bool = False) -> int:
    """Settle the pending turns (``settle_pending_turns``), then send the owed passes that no
    queued task will run (Celery beat, every half minute): never
    sent (the broker was away), sent longer ago than ``MEMORY_PASS_RESEND_AFTER_SECONDS`` and
    still not run (presumed lost), a dropped pass whose pause is over, a dead worker's lease
    run out. A pass waiting in the queue or backing off is left alone, and not even read.

    ``everything``: every owed pass whose lease is free, whatever its resend time (the one
    embedded worker died, and the tasks it held went with it).
    """
    settle_pending_turns()
    now = timezone.now()
    sent: list[int] = []
    for memory_id in list(passes_to_resend(now, everything=everything)):
        if not enqueue_pass(memory_id=memory_id):
            break  # the broker is still away; try again at the next sweep
        sent.append(memory_id)
    if sent:
        scheduling.sent(sent, at=now)
    return len(sent)


def resume_after_worker_loss() -> int:
    """The one embedded worker died and no other runs (``bin/run`` says so before restarting
    it): the leases it held are void, and every owed pass is sent again at once. Never call
    this while a worker may be running a pass."""
    scheduling.free_leases()
    return sweep_owed_passes(everything=True)
