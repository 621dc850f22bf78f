"""The pass engine: claim an owner's owed pass, read what no pass has read
(``memory.engine.reading``), have ``MEMORY_MODEL`` rewrite the list
(``memory.engine.rewriting``), and store it with a compare-and-set along with the read marks.

Concurrency (STYLE.md "The memory core"):
- ``scheduling.claim`` takes a lease with a conditional UPDATE: at most one pass per owner
  runs; a trigger during a pass is seen by the next claim, so none is lost or piled up.
- The pass reads from the database what is unread, so a duplicate or late task does nothing.
- The model is called outside any transaction; a lost compare-and-set re-reads and reruns,
  a bounded number of times.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from core import batch
from memory import history, scheduling, screening, tombstones, turns
from memory.engine import model_health
from memory.engine.reading import Work, next_work
from memory.engine.rewriting import PassFailed, Rewrite, rewrite_for
from memory.filters.gate import RULES_VERSION
from memory.models import Memory, MemoryEvent, Outcome
from memory.queueing import enqueue_pass
from memory.rules import provenance
from memory.services import event, lines_written, record_event, sources_of

log = logging.getLogger(__name__)

# Rounds one task may run back to back while triggers keep arriving.
MAX_ROUNDS = 5


@dataclass(frozen=True)
class PassResult:
    outcome: Outcome
    retry: bool = False
    # A voice pass consumes one session; more work (sessions, chat turns) may follow it.
    more: bool = False


def run_pass(*, memory_id: int, retry_in: int = 0) -> PassResult:
    """Run a memory's owed passes; a duplicate or late call does nothing.

    ``retry_in``: after a transient failure, no pass runs for that many seconds. When
    triggers keep coming past this task's rounds, it hands over to one new task.
    """
    result = PassResult(Outcome.NOT_OWED)
    again = False
    for _ in range(MAX_ROUNDS):
        claimed = scheduling.claim_and_read(memory_id, _reading())
        if claimed is None:
            return result
        lease, memory = claimed
        drained: PassResult | None = None
        held = _Lease(lease)
        try:
            with _kept(memory_id, held):
                drained = result = _drain(memory_id, memory)
        finally:
            lease = held.lease
            # Release before the next claim: a trigger during this round moved
            # pass_requested_at, so the claim below takes it.
            if drained is None:  # a crash: the task retries in ``retry_in`` seconds
                again = scheduling.release(memory_id, lease, retry_in=retry_in, more=False)
            else:
                again = scheduling.release(
                    memory_id, lease, back_off=drained.retry, more=drained.more
                )
        if not again:
            return result
    # The sweeper counts the new task as queued (enqueue_pass says otherwise if it fails).
    scheduling.handed_over(memory_id)
    transaction.on_commit(lambda: enqueue_pass(memory_id=memory_id))
    return result


class _Lease:
    """A running pass's lease, renewed beside it (``_kept``)."""

    def __init__(self, lease: datetime) -> None:
        self.lease = lease
        self.stop = threading.Event()


@contextmanager
def _kept(memory_id: int, held: _Lease) -> Iterator[None]:
    """Renew the lease every third of its length from a thread (a model call can outlast a
    lease); a dead worker's lease runs out within ``MEMORY_PASS_LEASE_SECONDS``. Joined before
    the release, so the release holds the last token."""
    every = max(settings.MEMORY_PASS_LEASE_SECONDS / 3, 0.1)

    def heartbeat() -> None:
        try:
            while not held.stop.wait(every):
                try:
                    renewed = scheduling.renew(memory_id, held.lease)
                except DatabaseError:
                    log.warning("memory.lease_not_renewed memory=%s", memory_id)
                    continue
                if renewed is None:
                    return  # the lease ran out and another pass took it
                held.lease = renewed
        finally:
            connection.close()  # this thread's own connection

    thread = threading.Thread(target=heartbeat, name=f"memory-lease-{memory_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        held.stop.set()
        thread.join()


def drop_pass(*, memory_id: int) -> None:
    """Give up a pass that crashed through its last retry (a bug; a failing model backs off).

    Turns stay unread and the pass owed, retried after ``MEMORY_DROPPED_PASS_RETRY_SECONDS``.
    Only work that crashed it ``MEMORY_PASS_DROPS_BEFORE_SKIP`` times in a row is given up as
    read, so it cannot block later passes. If another pass holds the lease, nothing is dropped."""
    memory = Memory.objects.lease_free(timezone.now()).filter(pk=memory_id).first()
    if memory is None:
        return
    failures = memory.pass_failures + 1
    if failures < settings.MEMORY_PASS_DROPS_BEFORE_SKIP:
        if not scheduling.pause_after_drop(memory_id, failures):
            return  # a pass claimed it meanwhile: it decides
        outcome = Outcome.DROPPED
    else:
        # Only while no pass holds the lease (checked again as failures reset).
        if not scheduling.take_for_giving_up(memory_id):
            return
        work = next_work(memory)
        if work is not None:
            _give_up(work)
        scheduling.given_up(memory_id)
        outcome = Outcome.SKIPPED
    record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.PASS,
        outcome=outcome,
        before=memory.lines,
        after=memory.lines,
    )


def _drain(memory_id: int, memory: Memory | None) -> PassResult:
    """Consume owed work, oldest first: voice sessions, then unread turns. ``more``: work left.
    ``memory``: the row as the claim read it.

    Stored lines are checked first, if the gate's rules changed since they were: a pass never
    reads turns against a list the rules have not cleared."""
    if memory is not None and memory.rules_version != RULES_VERSION:
        for _ in range(settings.MEMORY_CAS_ATTEMPTS):
            screened = screening.screen_stored(memory_id=memory_id)
            if screened != screening.Screened.LOST:
                break
        if screened == screening.Screened.HELD:
            return PassResult(Outcome.HELD, retry=True)
        if screened == screening.Screened.LOST:
            return PassResult(Outcome.CONFLICT, retry=True)
        memory = _read(memory_id)
    outcome = PassResult(Outcome.NO_WORK)
    for _ in range(MAX_ROUNDS * 2):
        # The first step works on the row just read; each later one reads it again.
        step = _apply_next(memory_id, memory)
        memory = None
        if step.retry:
            return step
        if step.outcome != Outcome.NO_WORK:
            outcome = step
        if not step.more:
            return PassResult(outcome.outcome)
    return PassResult(outcome.outcome, more=True)


# --- One pass -----------------------------------------------------------------------------------


def _reading() -> QuerySet[Memory]:
    """The memory row, and whether a voice session waits (one query)."""
    return Memory.objects.annotate(voice_pending=turns.store().voice_pending())


def _read(memory_id: int) -> Memory | None:
    return _reading().filter(pk=memory_id).first()


def _apply_next(memory_id: int, memory: Memory | None = None) -> PassResult:
    """Read the next work and store what the model makes of it (``memory``: the row, when just
    read).

    A failure of the model itself (key, name, outage) gives nothing up: the pass backs off and
    retries for as long as it takes, and ``model_health`` tells the operator. A failure that
    may be the work's (refused, too long, unreadable, wiping the list) halves the work down to
    one turn, tried twice; that turn is given up only if the model answers without it.
    """
    turns_at_most: int | None = None
    tried_alone = False
    conflicts = 0
    given = memory
    while True:  # bounded: each round returns, halves the work, or counts a lost race
        memory, given = given or _read(memory_id), None  # each round after the first re-reads
        if memory is None:
            return PassResult(Outcome.NO_WORK)  # the account was deleted: nothing to bring back
        if not memory.enabled:
            return PassResult(Outcome.NO_WORK)
        work = next_work(memory, turns_at_most=turns_at_most)
        if work is None:
            return PassResult(Outcome.NO_WORK)
        more = work.more or work.task == "voice"
        if not any(turn["role"] == "user" for turn in work.transcript):
            # Nothing the person said: the assistant's words are never a source of facts.
            _consume(work)
            return PassResult(Outcome.NO_WORK, more=more)
        kind = MemoryEvent.Kind.VOICE_PASS if work.task == "voice" else MemoryEvent.Kind.PASS
        try:
            rewrite = rewrite_for(memory, work)
        except PassFailed as failure:
            _trace_failure(memory, kind, failure.outcome)
            if not failure.about_work:
                model_health.failed(failure.kind)
                return PassResult(failure.outcome, retry=True)
            if len(work.transcript) > 1:
                turns_at_most = len(work.transcript) // 2
                continue
            if not tried_alone:
                tried_alone = True  # once more: an unreadable answer may be a fluke
                continue
            if not _model_answers(memory):
                return PassResult(failure.outcome, retry=True)  # it fails on anything
            _give_up_alone(work)
            _trace_failure(memory, kind, Outcome.SKIPPED)
            return PassResult(failure.outcome, more=True)
        model_health.succeeded()
        outcome = Outcome.UNCHANGED if rewrite.lines == memory.lines else Outcome.OK
        if _store(memory, work, rewrite, kind=kind, outcome=outcome):
            return PassResult(outcome, more=more)
        # Lost the compare-and-set (clear, delete, switch, handover, another pass): re-read.
        conflicts += 1
        if conflicts >= settings.MEMORY_CAS_ATTEMPTS:
            _trace_failure(memory, MemoryEvent.Kind.PASS, Outcome.CONFLICT, model="")
            return PassResult(Outcome.CONFLICT, retry=True)


def _trace_failure(
    memory: Memory, kind: str, outcome: Outcome, *, model: str | None = None
) -> None:
    record_event(
        owner_id=memory.owner_id,
        kind=kind,
        outcome=outcome,
        before=memory.lines,
        after=memory.lines,
        model=settings.MEMORY_MODEL if model is None else model,
    )


def _model_answers(memory: Memory) -> bool:
    """Whether the model answers this list with no turn: if so, the work was failing;
    if not, the model is (a 400 on every request is its configuration)."""
    try:
        rewrite_for(memory, Work(task="rewrite", transcript=[], forget_requested=False))
    except PassFailed as failure:
        model_health.failed(failure.kind)
        return False
    model_health.succeeded()
    return True


def _store(memory: Memory, work: Work, rewrite: Rewrite, *, kind: str, outcome: Outcome) -> bool:
    """Write the list, mark the work read and trace the pass, all or nothing: one round trip
    (``core.batch``) unless a voice session, a forget, a remember or a reset of failures goes
    with it. Turns are marked only if unmarked, so a turn is read once even if two passes race.
    """
    changed = rewrite.lines != memory.lines
    if changed:
        writes = lines_written(
            memory=memory,
            lines=rewrite.lines,
            tokens=rewrite.tokens,
            rules_version=RULES_VERSION,
            kind=kind,
            origin=_origin(work, rewrite),
        )
        made: batch.Inserted | None = batch.Inserted(
            next(i for i, w in enumerate(writes) if isinstance(w, batch.Insert))
        )
    else:
        # No change: still a CAS, but the version stays so If-Match clients see no change.
        # ``version=F("version")`` keeps the UPDATE real, so a match is not a lost race.
        mine = Memory.objects.filter(pk=memory.pk, version=memory.version)
        writes = [
            batch.Update(mine, {"version": F("version"), "rules_version": RULES_VERSION}, expect=1)
        ]
        made = None
    writes += turns.store().read_marks(work.message_ids, version=made, parts=work.parts)
    writes.append(
        batch.Insert(
            event(
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
        )
    )
    if _alone(memory, work, rewrite):
        if not batch.write(*writes, lazy=True):
            return False
    else:
        with transaction.atomic():
            if not batch.write(*writes) or (
                work.voice_session_id is not None and not _mark_voice_read(work)
            ):
                transaction.set_rollback(True)  # another pass read these turns first
                return False
            _keep_forgetting_final(memory, work, rewrite)
            if memory.pass_failures or memory.pass_retries:
                scheduling.succeeded(memory.pk)
    if changed:
        history.prune_if_due(memory_id=memory.pk, version=memory.version + 1)
    return True


def _alone(memory: Memory, work: Work, rewrite: Rewrite) -> bool:
    """Whether the pass's writes are all its store needs (no voice session, forget, remember
    or failures to reset)."""
    return not (
        work.voice_session_id is not None
        or rewrite.forgotten
        or any(s.remember for s in work.said())
        or memory.pass_failures
        or memory.pass_retries
    )


def _origin(work: Work, rewrite: Rewrite) -> provenance.Origin:
    """A new line's source: the turn the model cited for it, else the one that best supports it."""
    said = work.said()
    now = timezone.now()
    voice = work.task == "voice"
    return provenance.Origin(
        new=lambda line: provenance.learned_from(
            line, said, voice=voice, at=now, turn=rewrite.cited.get(line)
        )
    )


def _keep_forgetting_final(memory: Memory, work: Work, rewrite: Rewrite) -> None:
    """Tombstone what a cited turn of the person asked to forget and drop it from every
    version; untombstone what they restated and asked to remember. A line removed unasked is
    only an undoable removal."""
    after = rewrite.lines
    if rewrite.forgotten:
        gone = history.with_earlier_wordings(memory_id=memory.pk, lines=rewrite.forgotten)
        history.forget(memory_id=memory.pk, removed=gone, kept=after)
        tombstones.bury(memory_id=memory.pk, lines=gone, unless_in=after)
        if rewrite.lines != memory.lines:
            known = dict(zip(memory.lines, sources_of(memory), strict=True))
            history.hold_forgotten(
                memory_id=memory.pk,
                version=memory.version + 1,
                lines=[line for line in rewrite.forgotten if line in known],
                sources=[known[line] for line in rewrite.forgotten if line in known],
            )
    said = work.said()
    if any(s.remember for s in said):
        before = set(memory.lines)
        again = [
            line
            for line in after
            if line not in before
            and provenance.restated_and_remembered(line, said, turn=rewrite.cited.get(line))
        ]
        tombstones.unbury(memory_id=memory.pk, lines=again)


def _mark_read(work: Work) -> bool:
    marks = turns.store().read_marks(work.message_ids, parts=work.parts)
    return not marks or batch.write(*marks)


def _mark_voice_read(work: Work) -> bool:
    """Move the session's read mark past this pass's turns, only from where it started."""
    assert work.voice_session_id is not None
    start, end = work.voice_turns
    return turns.store().mark_voice_read(
        work.voice_session_id, start=start, end=end, done=not work.more, chars=work.voice_chars
    )


def _consume(work: Work) -> None:
    """Count the work as read without a list to store (nothing the person said)."""
    if work.voice_session_id is not None:
        _mark_voice_read(work)
    _mark_read(work)


def _give_up_alone(work: Work) -> None:
    """Give up the one turn a pass kept failing on while the model answers; the rest goes on."""
    if work.voice_session_id is not None:
        _mark_voice_read(work)
    else:
        turns.store().mark_skipped(work.message_ids)


def _give_up(work: Work) -> None:
    """Work a pass failed on every time: never read, never a source or context."""
    if work.voice_session_id is not None:
        turns.store().close_voice_session(work.voice_session_id)
    turns.store().mark_skipped(work.message_ids)
