"""Pass scheduling: every transition of a memory's pass, and the only writer of the columns
that coordinate passes across web processes, workers and the sweeper.

States, read off the row (``docs/ARCHITECTURE.md`` draws them):

- **idle**: no pass owed.
- **owed**: ``pass_requested``, lease free, not backing off; a task is on its way, or the
  sweeper sends one after ``pass_resend_at``.
- **running**: a worker holds the lease. A trigger during the pass moves ``pass_requested_at``
  past ``pass_claimed_at``, so the release leaves it owed and it runs once more.
- **backing off**: ``pass_not_before`` in the future after a model failure, a lost CAS or a
  crash; ``pass_retries`` doubles the wait up to a cap. After a model failure no task is
  queued: the sweeper sends one when the wait ends.
- **paused**: dropped after its retries; owed again after ``MEMORY_DROPPED_PASS_RETRY_SECONDS``.

Each transition is one conditional ``UPDATE`` whose row count says whether it happened, so
two processes never take the same step.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from enum import StrEnum
from typing import Final

from django.conf import settings
from django.db.models import F, Q, QuerySet, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from core import batch
from memory.models import Memory

# The pass-coordinating columns of ``Memory``; this module is their only writer.
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
    """idle or backing off → owed (``SEND``); owed or running → same, with
    ``pass_requested_at`` moved so the pass in flight runs once more."""
    now = timezone.now()
    memory = Memory.objects.filter(pk=memory_id, enabled=True)
    for _ in range(3):
        # Newly owed, or backing off (new turns are worth a try now). The sweeper waits until
        # the resend bound or a failed send.
        if memory.filter(Q(pass_requested=False) | Q(pass_not_before__isnull=False)).update(
            pass_requested=True,
            pass_requested_at=now,
            pass_not_before=None,
            pass_resend_at=_resend_bound(now),
        ):
            return Trigger.SEND
        # Already owed: only while still owed. A pass finishing between these two statements
        # let go of the request, and the next loop round owes a new one.
        if memory.filter(pass_requested=True).update(pass_requested_at=now):
            return Trigger.JOINED
        if not memory.exists():
            return Trigger.OFF
    return Trigger.OFF


def cancel(memory_id: int) -> None:
    """owed, backing off or paused → idle, in the caller's transaction (clear, switch,
    handover). A running pass keeps its lease but loses its CAS on the version the caller moves."""
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
    """A task takes over a pass with work left: counted as queued until the bound."""
    Memory.objects.filter(pk=memory_id, pass_requested=True).update(
        pass_resend_at=_resend_bound(timezone.now())
    )


# --- Running ------------------------------------------------------------------------------------


def claim(memory_id: int) -> datetime | None:
    """owed → running: take the lease with one conditional UPDATE; the lease is the claim's
    token, None when nothing is owed or another worker holds it.

    The request stays marked until the pass finishes: a killed worker leaves it owed, and the
    sweeper resends it once the short lease expires. A live pass renews its lease, so it is
    never run twice.
    """
    lease, taking = _claiming(memory_id)
    return lease if batch.write(taking) else None


def claim_and_read(memory_id: int, rows: QuerySet[Memory]) -> tuple[datetime, Memory] | None:
    """``claim``, and the memory's row from ``rows`` as the claim left it, in the same round
    trip."""
    lease, taking = _claiming(memory_id)
    read = batch.write_then_read(taking, rows.filter(pk=memory_id), lazy=True)
    return (lease, read[0]) if read else None


def _claiming(memory_id: int) -> tuple[datetime, batch.Update]:
    now = timezone.now()
    lease = now + timedelta(seconds=settings.MEMORY_PASS_LEASE_SECONDS)
    requested_at = Coalesce(F("pass_requested_at"), Value(now))
    taking = batch.Update(
        Memory.objects.owed(now).filter(pk=memory_id),
        {
            "lease_until": lease,
            "pass_requested_at": requested_at,
            "pass_claimed_at": requested_at,
            "pass_not_before": None,
            "pass_resend_at": lease,
        },
        expect=1,
    )
    return lease, taking


def backoff_seconds(retries: int) -> int:
    """The wait after ``retries`` + 1 failures in a row: doubling, capped."""
    base, cap = settings.MEMORY_PASS_BACKOFF_SECONDS, settings.MEMORY_PASS_BACKOFF_MAX_SECONDS
    return int(min(cap, base * 2 ** min(retries, 32)))


def renew(memory_id: int, lease: datetime) -> datetime | None:
    """running → running: move the lease (and resend time) a whole lease ahead. The new lease,
    or None when it is no longer this pass's."""
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
    """running → idle, owed (a newer trigger, or ``more`` work) or backing off: ``back_off``
    after a transient failure (the sweeper resends after the wait), ``retry_in`` seconds after
    a crash (the task's retry is queued).

    Returns whether this worker should take another round."""
    mine = Memory.objects.filter(pk=memory_id, lease_until=lease)
    now = timezone.now()
    if retry_in is not None:
        # The task's retry is queued for the backoff's end; the sweeper waits a resend bound more.
        retry_at = now + timedelta(seconds=retry_in)
        mine.update(
            lease_until=None, pass_not_before=retry_at, pass_resend_at=_resend_bound(retry_at)
        )
        return False
    if back_off:
        retries = mine.values_list("pass_retries", flat=True).first()
        if retries is None:
            return False  # not our lease any more
        # Nothing queued: the sweeper sends it once the wait is over.
        retry_at = now + timedelta(seconds=backoff_seconds(retries))
        mine.update(
            lease_until=None,
            pass_retries=F("pass_retries") + 1,
            pass_not_before=retry_at,
            pass_resend_at=retry_at,
        )
        return False
    if more:
        # Work left: stay owed for the next claim or the sweeper.
        return bool(mine.update(lease_until=None, pass_requested=True, pass_resend_at=now))
    done = {"lease_until": None, "pass_requested": False}
    if batch.write(
        batch.Update(mine.filter(pass_requested_at=F("pass_claimed_at")), done, expect=1),
        lazy=True,  # a lost release leaves the pass owed: it runs again, finding nothing
    ):
        return False  # the usual case: one UPDATE
    return bool(mine.update(lease_until=None, pass_resend_at=now))


def succeeded(memory_id: int) -> None:
    """A stored pass resets the failure and drop counts (in its transaction)."""
    Memory.objects.filter(pk=memory_id).filter(
        Q(pass_failures__gt=0) | Q(pass_retries__gt=0)
    ).update(pass_failures=0, pass_retries=0)


def free_leases() -> None:
    """running → owed for every pass: the one embedded worker died. Never while a worker runs."""
    Memory.objects.filter(lease_until__isnull=False).update(lease_until=None)


# --- Dropping -----------------------------------------------------------------------------------


def pause_after_drop(memory_id: int, failures: int) -> bool:
    """owed → paused until ``MEMORY_DROPPED_PASS_RETRY_SECONDS`` (the sweeper resends it).
    False when a pass claimed it meanwhile."""
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
    """Reset the failures while no pass holds the lease; False if a pass claimed it meanwhile."""
    return bool(
        Memory.objects.lease_free(timezone.now()).filter(pk=memory_id).update(pass_failures=0)
    )


def given_up(memory_id: int) -> None:
    """paused → idle; a trigger that came since stays owed (and is sent at once)."""
    Memory.objects.filter(pk=memory_id).update(
        pass_failures=0, pass_not_before=None, pass_resend_at=timezone.now()
    )
    Memory.objects.filter(pk=memory_id, pass_requested_at=F("pass_claimed_at")).update(
        pass_requested=False
    )
