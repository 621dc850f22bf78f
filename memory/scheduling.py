"""Pass scheduling: every transition of a memory's pass, and the only writer of the columns
that coordinate passes across web processes, workers and the sweeper.

A memory's pass is in one of these states (``docs/ARCHITECTURE.md`` draws them), each read off
the row:

- **idle**: no pass owed (``pass_requested`` false).
- **owed**: a pass is owed and may run (``pass_requested``, the lease free, not backing off); a
  task is on its way, or, once ``pass_resend_at`` has passed, the sweeper sends one.
- **running**: a worker holds the lease (``lease_until`` in the future). The request it answers
  is copied to ``pass_claimed_at``; a trigger during the pass moves ``pass_requested_at`` past
  it, so the release leaves the pass owed and it runs once more.
- **backing off**: a failure that may pass (``pass_not_before`` in the future): the memory
  model failing, a lost compare-and-set, or a crash (the task's retry is queued for then);
  ``pass_retries`` counts the failures in a row, and the wait doubles with each up to a cap. No
  task is queued for a failure of the model: the sweeper sends one when the wait is over, for
  as long as it fails.
- **paused**: a pass dropped after its retries (``pass_failures`` counts them) is owed again
  after ``MEMORY_DROPPED_PASS_RETRY_SECONDS``.

Each transition is one conditional ``UPDATE`` whose row count says whether it happened, so two
processes never both take the same step (the database decides, not a lock held in Python).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Final

from django.conf import settings
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from memory.models import Memory

# The columns of ``Memory`` that coordinate passes: this module is their only writer.
COORDINATION_COLUMNS: Final = (
    "pass_requested",
    "pass_requested_at",
    "pass_claimed_at",
    "lease_until",
    "pass_not_before",
    "pass_failures",
    "pass_retries",
    "pass_resend_at",
)


class Trigger(StrEnum):
    """What asking for a pass did."""

    SEND = "send"  # newly owed (or cut a backoff short): a task must be sent
    JOINED = "joined"  # already owed: the pass in flight takes one more round
    OFF = "off"  # memory is off: nothing is owed


def _resend_bound(now: datetime) -> datetime:
    return now + timedelta(seconds=settings.MEMORY_PASS_RESEND_AFTER_SECONDS)


# --- Asking for a pass --------------------------------------------------------------------------


def owe(memory_id: int) -> Trigger:
    """idle or backing off → owed (``SEND``: a task must be sent); owed or running → the same,
    with ``pass_requested_at`` moved so the pass in flight takes one more round."""
    now = timezone.now()
    memory = Memory.objects.filter(pk=memory_id, enabled=True)
    for _ in range(3):
        # Newly owed, or backing off after a failure (new turns are worth a try at once). The
        # sweeper leaves it alone until the resend bound, or until a failed send says otherwise.
        if memory.filter(Q(pass_requested=False) | Q(pass_not_before__isnull=False)).update(
            pass_requested=True,
            pass_requested_at=now,
            pass_not_before=None,
            pass_resend_at=_resend_bound(now),
        ):
            return Trigger.SEND
        # Already owed: only while it is still owed. A pass that finished between these two
        # statements has let go of the request, and the next round of this loop owes a new one.
        if memory.filter(pass_requested=True).update(pass_requested_at=now):
            return Trigger.JOINED
        if not memory.exists():
            return Trigger.OFF
    return Trigger.OFF


def cancel(memory_id: int) -> None:
    """owed, backing off or paused → idle, in the caller's transaction (a clear, a switch, a
    handover); a running pass keeps its lease and loses its compare-and-set on the version the
    caller moves in the same transaction, so it stores nothing."""
    Memory.objects.filter(pk=memory_id, pass_requested=True).update(pass_requested=False)


# --- Sending ------------------------------------------------------------------------------------


def send_failed(memory_id: int) -> None:
    """The task could not be sent: due for the sweeper at once."""
    Memory.objects.filter(pk=memory_id, pass_requested=True).update(pass_resend_at=timezone.now())


def sent(memory_ids: list[int], *, at: datetime) -> None:
    """The sweeper sent these tasks: it leaves them alone until the resend bound."""
    Memory.objects.filter(pk__in=memory_ids, pass_requested=True).update(
        pass_resend_at=_resend_bound(at)
    )


def handed_over(memory_id: int) -> None:
    """A task is sent to take over a pass with work left: counted as queued until the bound."""
    Memory.objects.filter(pk=memory_id, pass_requested=True).update(
        pass_resend_at=_resend_bound(timezone.now())
    )


# --- Running ------------------------------------------------------------------------------------


def claim(memory_id: int) -> datetime | None:
    """owed → running: take the lease with one conditional UPDATE; returns the lease (the
    claim's token), or None when no pass is owed or another worker holds it.

    The request the pass answers is copied to ``pass_claimed_at``. It stays marked until the
    pass finishes: a worker killed mid-pass leaves it owed, and once the lease expires (it is
    short: ``MEMORY_PASS_LEASE_SECONDS``) the sweeper sends it again (``pass_resend_at`` moves
    with the lease). A live pass renews its lease while it runs (``renew``), so however long it
    takes it is never run twice.
    """
    now = timezone.now()
    lease = now + timedelta(seconds=settings.MEMORY_PASS_LEASE_SECONDS)
    requested_at = Coalesce(F("pass_requested_at"), Value(now))
    claimed = (
        Memory.objects.owed(now)
        .filter(pk=memory_id)
        .update(
            lease_until=lease,
            pass_requested_at=requested_at,
            pass_claimed_at=requested_at,
            pass_not_before=None,
            pass_resend_at=lease,
        )
    )
    return lease if claimed == 1 else None


def backoff_seconds(retries: int) -> int:
    """The wait after ``retries`` + 1 failures in a row: doubling, capped."""
    base, cap = settings.MEMORY_PASS_BACKOFF_SECONDS, settings.MEMORY_PASS_BACKOFF_MAX_SECONDS
    return int(min(cap, base * 2 ** min(retries, 32)))


def renew(memory_id: int, lease: datetime) -> datetime | None:
    """running → running, for longer: a live pass's heartbeat moves its lease (and the resend
    time with it) a whole lease ahead. Returns the new lease (the token ``release`` then
    takes), or None when the lease is no longer this pass's."""
    renewed = timezone.now() + timedelta(seconds=settings.MEMORY_PASS_LEASE_SECONDS)
    moved = Memory.objects.filter(pk=memory_id, lease_until=lease).update(
        lease_until=renewed, pass_resend_at=renewed
    )
    return renewed if moved else None


def release(
    memory_id: int,
    lease: datetime,
    *,
    more: bool,
    retry_in: int | None = None,
    back_off: bool = False,
) -> bool:
    """running → idle (the request answered, no newer trigger), owed (a newer trigger, or
    ``more`` work left) or backing off: ``back_off`` after a failure that may pass (the wait
    grows with the failures in a row; the sweeper sends the pass when it is over), or
    ``retry_in`` seconds after a crash (the task's own retry is queued for then).

    Returns whether this worker should take another round (the pass is owed again)."""
    mine = Memory.objects.filter(pk=memory_id, lease_until=lease)
    now = timezone.now()
    if retry_in is not None:
        # The task's retry is queued for the end of the backoff: the sweeper leaves it alone
        # until the resend bound after that.
        retry_at = now + timedelta(seconds=retry_in)
        mine.update(
            lease_until=None, pass_not_before=retry_at, pass_resend_at=_resend_bound(retry_at)
        )
        return False
    if back_off:
        retries = mine.values_list("pass_retries", flat=True).first()
        if retries is None:
            return False  # not our lease any more
        # Nothing is queued for the retry: the sweeper sends it once the wait is over.
        retry_at = now + timedelta(seconds=backoff_seconds(retries))
        mine.update(
            lease_until=None,
            pass_retries=F("pass_retries") + 1,
            pass_not_before=retry_at,
            pass_resend_at=retry_at,
        )
        return False
    if more:
        # Work left: stay owed, so the next claim (or, failing that, the sweeper) takes it.
        return bool(mine.update(lease_until=None, pass_requested=True, pass_resend_at=now))
    if mine.filter(pass_requested_at=F("pass_claimed_at")).update(
        lease_until=None, pass_requested=False
    ):
        return False  # the usual case: one UPDATE, and nothing more to do
    return bool(mine.update(lease_until=None, pass_resend_at=now))


def succeeded(memory_id: int) -> None:
    """A stored pass ends a run of failures and drops (in the transaction that stores it)."""
    Memory.objects.filter(pk=memory_id).filter(
        Q(pass_failures__gt=0) | Q(pass_retries__gt=0)
    ).update(pass_failures=0, pass_retries=0)


def free_leases() -> None:
    """running → owed for every pass: the one embedded worker died and no other runs, so the
    leases it held are void. Never while a worker may be running a pass."""
    Memory.objects.filter(lease_until__isnull=False).update(lease_until=None)


# --- Dropping -----------------------------------------------------------------------------------


def pause_after_drop(memory_id: int, failures: int) -> bool:
    """owed → paused: a pass dropped after its retries is owed again after
    ``MEMORY_DROPPED_PASS_RETRY_SECONDS`` (no task is queued: the sweeper sends it then).
    False when a pass claimed it meanwhile (it decides)."""
    now = timezone.now()
    retry_at = now + timedelta(seconds=settings.MEMORY_DROPPED_PASS_RETRY_SECONDS)
    return bool(
        Memory.objects.lease_free(now)
        .filter(pk=memory_id)
        .update(
            pass_failures=failures,
            pass_requested=True,
            pass_not_before=retry_at,
            pass_resend_at=retry_at,
        )
    )


def take_for_giving_up(memory_id: int) -> bool:
    """The failures reset while no pass holds the lease: the caller may give the work up.
    False when a pass claimed it meanwhile (it decides)."""
    return bool(
        Memory.objects.lease_free(timezone.now()).filter(pk=memory_id).update(pass_failures=0)
    )


def given_up(memory_id: int) -> None:
    """paused → idle for the request that failed; a trigger that came in since stays owed
    (and the sweeper sends it at once)."""
    Memory.objects.filter(pk=memory_id).update(
        pass_failures=0, pass_not_before=None, pass_resend_at=timezone.now()
    )
    Memory.objects.filter(pk=memory_id, pass_requested_at=F("pass_claimed_at")).update(
        pass_requested=False
    )
