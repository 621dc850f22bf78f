"""The pass engine: claim an owner's owed pass, read what no pass has read yet
(``memory.reading``), have ``MEMORY_MODEL`` rewrite the whole list (``memory.rewriting``), and
store it with a compare-and-set together with the marks that say what was read.

Concurrency, in short (STYLE.md "The memory core"):
- a trigger sets ``pass_requested``; ``_claim`` takes a lease with a conditional UPDATE, so at
  most one pass per owner runs at a time across all workers, and a trigger that arrives during a
  pass is seen by the next claim — one more pass afterwards, never a lost or a piled-up one;
- the pass decides from the database what to read (the turns still unread, ended voice sessions
  not yet done), so a duplicate or late task finds nothing and does nothing;
- the model is called outside any transaction; the write is a compare-and-set on the version
  and, on conflict, the pass re-reads and runs again, a bounded number of times.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from memory import turns
from memory.filters import RULES_VERSION
from memory.models import Memory, MemoryEvent
from memory.queueing import enqueue_pass
from memory.reading import Work, next_work
from memory.rewriting import PassFailed, Rewrite, rewrite_for
from memory.services import record_event, write_lines

log = logging.getLogger(__name__)

# Rounds one task may run back to back for triggers that keep arriving during its passes.
MAX_ROUNDS = 5


@dataclass(frozen=True)
class PassResult:
    outcome: str
    retry: bool = False
    # A voice pass consumes one session; more work (sessions, chat turns) may follow it.
    more: bool = False


# --- Coalescing ---------------------------------------------------------------------------------


def _claim(memory_id: int) -> datetime | None:
    """Take the owner's pass lease with one conditional UPDATE; returns the lease (the claim's
    token), or None when no pass is owed or another worker holds it.

    The request the pass answers is copied to ``pass_claimed_at``. It stays marked until the
    pass finishes: a worker killed mid-pass leaves it owed, and once the lease expires the
    sweeper enqueues it again (``pass_resend_at`` moves with the lease). The lease outlives
    the task's hard time limit, so a live pass never loses it.
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


def _release(memory_id: int, lease: datetime, *, result: PassResult, retry_in: int = 0) -> bool:
    """Drop our lease; mark the request done if it was answered and no newer trigger came in.

    Returns whether this worker should take another round (a newer trigger came in, or unread
    turns were left over).
    """
    mine = Memory.objects.filter(pk=memory_id, lease_until=lease)
    now = timezone.now()
    if result.retry:
        # The task's retry is queued for the end of the backoff: the sweeper leaves it alone
        # until the resend bound after that.
        retry_at = now + timedelta(seconds=retry_in)
        mine.update(
            lease_until=None,
            pass_not_before=retry_at,
            pass_resend_at=retry_at + timedelta(seconds=settings.MEMORY_PASS_RESEND_AFTER_SECONDS),
        )
        return False
    if result.more:
        # Work left: stay owed, so the next claim (or, failing that, the sweeper) takes it.
        return bool(mine.update(lease_until=None, pass_requested=True, pass_resend_at=now))
    if mine.filter(pass_requested_at=F("pass_claimed_at")).update(
        lease_until=None, pass_requested=False
    ):
        return False  # the usual case: one UPDATE, and nothing more to do
    return bool(mine.update(lease_until=None, pass_resend_at=now))


@contextmanager
def _lazy_commits() -> Iterator[None]:
    """A pass's commits do not wait for the disk (PostgreSQL's ``synchronous_commit = off``):
    three fewer flushes per pass. Safe because nothing a pass writes must survive a crash of
    the database server: the list and the turns it read are one transaction, lost together, so
    the turns are unread again and the next pass reads them; a lost lease or release leaves
    the pass owed (the sweeper sends it). The web's writes (messages, clears, deletions) stay
    synchronous, and the WAL is flushed in order, so none of them can outlive a lost pass that
    came before it."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SET synchronous_commit TO OFF")
    try:
        yield
    finally:
        try:
            with connection.cursor() as cursor:
                cursor.execute("RESET synchronous_commit")
        except DatabaseError:
            # The connection broke (the error on its way out says why): never reuse it.
            connection.close()


def run_pass(*, memory_id: int, retry_in: int = 0) -> PassResult:
    """Run the owed pass(es) of one memory; safe to call twice or late (it then does nothing).

    ``retry_in``: after a failure that may pass, no pass runs for that many seconds (the task
    retries then; the sweeper waits too). When triggers keep coming or a backlog is longer than
    this task's rounds, it hands over to one new task instead of letting the request wait for
    the sweeper.
    """
    result = PassResult("not_owed")
    again = False
    with _lazy_commits():
        for _ in range(MAX_ROUNDS):
            lease = _claim(memory_id)
            if lease is None:
                return result
            result = PassResult("error", retry=True)
            try:
                result = _drain(memory_id)
            finally:
                # Release before the next claim: a trigger that came in during this round moved
                # pass_requested_at, so the request stays owed and the claim below takes it.
                again = _release(memory_id, lease, result=result, retry_in=retry_in)
            if not again:
                return result
    # One new task takes over; the sweeper counts it as queued (enqueue_pass says otherwise if
    # the send fails).
    Memory.objects.filter(pk=memory_id, pass_requested=True).update(
        pass_resend_at=timezone.now() + timedelta(seconds=settings.MEMORY_PASS_RESEND_AFTER_SECONDS)
    )
    transaction.on_commit(lambda: enqueue_pass(memory_id=memory_id))
    return result


def drop_pass(*, memory_id: int) -> None:
    """Give up on a pass after its last retry, without losing a turn: the turns stay unread and
    the pass stays owed, tried again after ``MEMORY_DROPPED_PASS_RETRY_SECONDS`` (an outage
    of the memory model makes memory late, never forgetful). Only work that made the pass fail
    ``MEMORY_PASS_DROPS_BEFORE_SKIP`` times in a row (a voice session or a turn the model always
    chokes on) is given up, as never read, so it cannot block every later pass. The list stays
    as it was, and the trace says which it was. A pass running meanwhile (another task holds
    the lease) decides instead: nothing is dropped under it."""
    free = Memory.objects.lease_free(timezone.now()).filter(pk=memory_id)
    memory = free.first()
    if memory is None:
        return
    failures = memory.pass_failures + 1
    if failures < settings.MEMORY_PASS_DROPS_BEFORE_SKIP:
        retry_at = timezone.now() + timedelta(seconds=settings.MEMORY_DROPPED_PASS_RETRY_SECONDS)
        # No task is queued for it: the sweeper sends it once the pause is over.
        if not free.update(
            pass_failures=failures,
            pass_requested=True,
            pass_not_before=retry_at,
            pass_resend_at=retry_at,
        ):
            return  # a pass claimed it meanwhile: it decides
        outcome = "dropped"
    else:
        # Given up only while no pass holds the lease (checked again as the failures reset).
        if not free.update(pass_failures=0):
            return
        work = next_work(memory)
        if work is not None:
            _give_up(work)
        # Only the request that failed: a trigger that came in since is still owed (and sent by
        # the sweeper).
        Memory.objects.filter(pk=memory_id).update(
            pass_failures=0, pass_not_before=None, pass_resend_at=timezone.now()
        )
        Memory.objects.filter(pk=memory_id, pass_requested_at=F("pass_claimed_at")).update(
            pass_requested=False
        )
        outcome = "skipped"
    record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.PASS,
        outcome=outcome,
        before=memory.lines,
        after=memory.lines,
    )


def _drain(memory_id: int) -> PassResult:
    """Consume the owed work, oldest first: each ended voice session, then the unread turns
    (as many rounds as the transcript cap needs). ``more`` says work was left over."""
    outcome = PassResult("no_work")
    for _ in range(MAX_ROUNDS * 2):
        step = _apply_next(memory_id)
        if step.retry:
            return step
        if step.outcome != "no_work":
            outcome = step
        if not step.more:
            return PassResult(outcome.outcome)
    return PassResult(outcome.outcome, more=True)


# --- One pass -----------------------------------------------------------------------------------


def _apply_next(memory_id: int) -> PassResult:
    for _ in range(settings.MEMORY_CAS_ATTEMPTS):
        memory = (
            Memory.objects.filter(pk=memory_id)
            .annotate(voice_pending=turns.store().voice_pending())
            .first()
        )
        if memory is None:
            return PassResult("no_work")  # the account was deleted: nothing to bring back
        if not memory.enabled:
            return PassResult("no_work")
        work = next_work(memory)
        if work is None:
            return PassResult("no_work")
        more = work.more or work.task == "voice"
        if not any(turn["role"] == "user" for turn in work.transcript):
            # Nothing the person said (say, only a reply that landed after a clear): the
            # assistant's words are never a source of facts, so there is nothing to ask.
            _consume(work)
            return PassResult("no_work", more=more)
        kind = MemoryEvent.Kind.VOICE_PASS if work.task == "voice" else MemoryEvent.Kind.PASS
        try:
            rewrite = rewrite_for(memory, work)
        except PassFailed as failure:
            record_event(
                owner_id=memory.owner_id,
                kind=kind,
                outcome=failure.code,
                before=memory.lines,
                after=memory.lines,
                model=settings.MEMORY_MODEL,
            )
            if failure.retryable:
                return PassResult(failure.code, retry=True)
            # A permanent failure gives the work up (never read), or every later pass would
            # choke on it.
            _give_up(work)
            return PassResult(failure.code, more=more)
        outcome = "unchanged" if rewrite.lines == memory.lines else "ok"
        if _store(memory, work, rewrite, kind=kind, outcome=outcome):
            return PassResult(outcome, more=more)
        # Lost the compare-and-set (a clear, a delete, a switch, a handover, or another pass
        # marked these turns): re-read the list and the turns, and decide again.
    record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.PASS,
        outcome="conflict",
        before=memory.lines,
        after=memory.lines,
    )
    return PassResult("conflict", retry=True)


def _store(memory: Memory, work: Work, rewrite: Rewrite, *, kind: str, outcome: str) -> bool:
    """Write the list, mark the work read and trace the pass, all or nothing: the turns are
    marked only if no one marked them first, so a turn is read exactly once even if two passes
    raced for it."""
    with transaction.atomic():
        if rewrite.lines == memory.lines:
            # The usual result of a pass. Still a compare-and-set, but the version stays, so a
            # client holding it (If-Match) is not told the list changed when it did not.
            # ``version=F("version")`` keeps the UPDATE real, so a match is never mistaken for a
            # lost race.
            written = Memory.objects.filter(pk=memory.pk, version=memory.version).update(
                version=F("version"), rules_version=RULES_VERSION, pass_failures=0
            )
        else:
            written = write_lines(
                memory=memory,
                lines=rewrite.lines,
                tokens=rewrite.tokens,
                rules_version=RULES_VERSION,
                pass_failures=0,
            )
        if not written or _mark_read(work) != len(work.message_ids):
            transaction.set_rollback(True)
            return False
        if work.voice_session_id is not None and not _mark_voice_read(work):
            transaction.set_rollback(True)  # another pass read these voice turns first
            return False
        record_event(
            owner_id=memory.owner_id,
            kind=kind,
            outcome=outcome,
            before=memory.lines,
            after=rewrite.lines,
            tokens_before=memory.tokens,
            tokens_after=rewrite.tokens,
            model=settings.MEMORY_MODEL,
            refused_lines=rewrite.refused,
            latency_ms=rewrite.latency_ms,
            model_tokens_in=rewrite.model_tokens_in,
            model_tokens_out=rewrite.model_tokens_out,
        )
    return True


def _mark_read(work: Work) -> int:
    return turns.store().mark_read(work.message_ids)


def _mark_voice_read(work: Work) -> bool:
    """Move the session's read mark past this pass's turns, only from where this pass started;
    done once the whole transcript is read."""
    assert work.voice_session_id is not None
    start, end = work.voice_turns
    return turns.store().mark_voice_read(
        work.voice_session_id, start=start, end=end, done=not work.more
    )


def _consume(work: Work) -> None:
    """Count the work as read without a list to store (nothing the person said)."""
    if work.voice_session_id is not None:
        _mark_voice_read(work)
    _mark_read(work)


def _give_up(work: Work) -> None:
    """Work a pass failed on every time: never read, so never a source nor context either."""
    if work.voice_session_id is not None:
        turns.store().close_voice_session(work.voice_session_id)
    turns.store().mark_skipped(work.message_ids)
