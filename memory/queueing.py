"""Owing, sending and sweeping memory passes: at most one queued task per owner, a failing
broker costs a bounded moment (the request is in the database first), and the sweeper resends
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
    """Owe the owner's memory a pass, and enqueue it once the caller commits.

    The request lives in the database first, so a broker outage loses nothing: the sweeper
    sends it later. At most one task per owner: if a pass is already owed, the trigger only
    moves ``pass_requested_at``. False when memory is off or the owner is gone.
    ``memory_id``: the owner's row, if already read (rows never change owner).
    """
    if memory_id is None:
        memory_id = _memory_id(owner_id)
    if memory_id is None:
        return False
    trigger = scheduling.owe(memory_id)
    if trigger is scheduling.Trigger.SEND:
        # Sent after commit (and after the response).
        transaction.on_commit(lambda: after_response.send(memory_id))
    return trigger is not scheduling.Trigger.OFF


def request_pass_or_defer(*, owner_id: int, memory_id: int | None = None) -> bool:
    """``request_pass`` in the caller's transaction, waiting at most
    ``MEMORY_TRIGGER_LOCK_TIMEOUT_MS`` for the memory row.

    False when the row is locked or stalled: nothing was written, the caller's transaction
    goes on, and its turns stay PENDING for the sweeper. True when owed or memory is off."""
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    # Only for this savepoint; its rollback or the reply's commit ends it.
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
    """Settle PENDING turns as each owner's memory was when they were said, and owe passes for
    those now unread. Under the memory row's lock, so a switch cannot race it. Stops at the
    first locked or stalled memory (the next sweep retries). Returns how many passes it owed."""
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
    """The owner's memory row id, created on first use; None if the owner is gone."""
    found = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            return Memory.objects.create(owner_id=owner_id).pk
    except IntegrityError:
        # Created meanwhile, or the owner was deleted (a guest that signed up).
        return Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()


class BrokerBreaker:
    """After a broker failure, skip it for a while rather than pay its timeout per reply.
    Per process on purpose: owed passes are in the database, so a skipped send is only late."""

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
    """Send pass tasks after the web response's last byte (``request_finished``), so a reply
    never waits on the broker. Outside a request, send at once. Per thread."""

    def __init__(self) -> None:
        self._local = threading.local()

    def start(self, **kwargs: object) -> None:
        self.flush()  # a request that never finished leaves nothing behind
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
                    # Noting the failure failed too: the pass is still owed in the database.
                    log.warning("memory.enqueue_unrecorded memory=%s", memory_id)
        finally:
            # Runs after Django's end-of-request cleanup: close a connection opened here too.
            close_old_connections()


after_response = AfterResponse()


def enqueue_pass(*, memory_id: int) -> bool:
    """Send the pass task; a failing broker costs a bounded moment (short timeouts, then the
    breaker), never a reply. An unsent pass is due for the sweeper at once."""
    if broker_breaker.allows():
        try:
            # By name: the task module sits above this one (it calls the engine, which owes here).
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
    """Ids of owed passes to resend, longest due first (no starving), one batch at most."""
    owed = Memory.objects.owed(now) if everything else Memory.objects.to_resend(now)
    return owed.order_by("pass_resend_at").values_list("pk", flat=True)[:SWEEP_BATCH]


def sweep_owed_passes(*, everything: bool = False) -> int:
    """Settle pending turns, then send owed passes no queued task will run (beat, every 30 s):
    never sent, sent over ``MEMORY_PASS_RESEND_AFTER_SECONDS`` ago (presumed lost), paused
    past their pause, or a dead worker's expired lease. Queued or backing-off passes are not read.

    ``everything``: every owed pass with a free lease (the one embedded worker died).
    """
    settle_pending_turns()
    now = timezone.now()
    sent: list[int] = []
    for memory_id in list(passes_to_resend(now, everything=everything)):
        if not enqueue_pass(memory_id=memory_id):
            break  # the broker is still away; the next sweep retries
        sent.append(memory_id)
    if sent:
        scheduling.sent(sent, at=now)
    return len(sent)


def resume_after_worker_loss() -> int:
    """The one embedded worker died (``config/launcher.py`` calls this before restarting it):
    void its leases and resend every owed pass. Never while a worker may be running a pass."""
    scheduling.free_leases()
    return sweep_owed_passes(everything=True)
