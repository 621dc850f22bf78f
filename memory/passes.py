"""The memory pass: read recent turns and the list, have ``MEMORY_MODEL`` rewrite the whole list,
validate it in code, fit it under the cap, and store it with a compare-and-set.

Concurrency, in short (STYLE.md "The memory core"):
- a trigger sets ``pass_requested``; ``_claim`` takes a lease with a conditional UPDATE, so at
  most one pass per owner runs at a time across all workers, and a trigger that arrives during a
  pass is seen by the next claim — one more pass afterwards, never a lost or a piled-up one;
- the pass decides from the database what to read (turns after the last clear and after the
  last message it consumed), so a duplicate or late task finds nothing and does nothing;
- the model is called outside any transaction; the write is a compare-and-set on the version
  and, on conflict, the pass re-reads and runs again, a bounded number of times.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Literal

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import Exists, F, OuterRef, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from chat import llm
from chat.models import Message, VoiceSession
from memory import budget, prompts
from memory.filters import RULES_VERSION, validate_lines
from memory.lines import MalformedAnswer, parse_answer
from memory.models import Memory, MemoryEvent
from memory.services import record_event, write_lines
from memory.triggers import is_forget_request

log = logging.getLogger(__name__)

# A rewrite that keeps fewer than this share of a list of at least WIPE_MIN_LINES lines, when
# nobody asked to forget, is treated as a broken answer: the saved list stays as it was.
WIPE_KEEP_SHARE = 0.5
WIPE_MIN_LINES = 4
# A condense answer must keep at least this share of the rewrite's target size (1,500 tokens),
# or it is refused like a wipe and the positional cut runs instead.
CONDENSE_KEEP_SHARE = 0.25
# At most this many unread turns are looked at per round (the transcript cap usually binds first).
UNREAD_TURNS_SCANNED = 500
# Already-read turns that go along as context, per conversation with new turns, and their size.
CONTEXT_TURNS = 4
CONTEXT_CONVERSATIONS = 8
CONTEXT_TURN_CHARS = 1_000
# Rounds one task may run back to back for triggers that keep arriving during its passes.
MAX_ROUNDS = 5


class PassFailed(Exception):
    """A pass could not produce a list; the saved list is untouched. Content-free."""

    def __init__(self, code: str, *, retryable: bool) -> None:
        super().__init__(f"memory pass failed: {code}")
        self.code = code
        self.retryable = retryable


@dataclass(frozen=True)
class PassResult:
    outcome: str
    retry: bool = False
    # A voice pass consumes one session; more work (sessions, chat turns) may follow it.
    more: bool = False


Turn = dict[str, Any]


@dataclass(frozen=True)
class Work:
    """What one pass reads: the new turns (its only sources), the already-read turns that go
    along as context, and what to mark read once the pass is stored."""

    task: prompts.Task
    transcript: list[Turn]
    forget_requested: bool
    context: list[Turn] = field(default_factory=list)
    message_ids: tuple[int, ...] = ()
    voice_session_id: int | None = None
    # The voice turns this pass reads: from (already read before) to (read once stored).
    voice_turns: tuple[int, int] = (0, 0)
    # Unread turns are left for another round (the transcript cap, or a long backlog).
    more: bool = False


@dataclass(frozen=True)
class Rewrite:
    lines: list[str]
    tokens: int
    refused: int
    model_tokens_in: int
    model_tokens_out: int
    latency_ms: int
    condensed: bool
    cut: bool


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
    from memory.services import enqueue_pass

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
    memory = Memory.objects.lease_free(timezone.now()).filter(pk=memory_id).first()
    if memory is None:
        return
    failures = memory.pass_failures + 1
    if failures < settings.MEMORY_PASS_DROPS_BEFORE_SKIP:
        retry_at = timezone.now() + timedelta(seconds=settings.MEMORY_DROPPED_PASS_RETRY_SECONDS)
        # No task is queued for it: the sweeper sends it once the pause is over.
        Memory.objects.filter(pk=memory_id).update(
            pass_failures=failures,
            pass_requested=True,
            pass_not_before=retry_at,
            pass_resend_at=retry_at,
        )
        outcome = "dropped"
    else:
        work = _next_work(memory)
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
        memory = Memory.objects.filter(pk=memory_id).annotate(voice_pending=_VOICE_PENDING).first()
        if memory is None:
            return PassResult("no_work")  # the account was deleted: nothing to bring back
        if not memory.enabled:
            return PassResult("no_work")
        work = _next_work(memory)
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
            rewrite = _rewrite(memory, work)
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
    if not work.message_ids:
        return 0
    return Message.objects.filter(
        pk__in=work.message_ids, memory_state=Message.MemoryState.UNREAD
    ).update(memory_state=Message.MemoryState.READ)


def _mark_voice_read(work: Work) -> bool:
    """Move the session's read mark past this pass's turns, only from where this pass started;
    done once the whole transcript is read."""
    start, end = work.voice_turns
    done = None if work.more else timezone.now()
    return bool(
        VoiceSession.objects.filter(
            pk=work.voice_session_id, memory_turns_read=start, memory_pass_done_at__isnull=True
        ).update(memory_turns_read=end, memory_pass_done_at=done)
    )


def _consume(work: Work) -> None:
    """Count the work as read without a list to store (nothing the person said)."""
    if work.voice_session_id is not None:
        _mark_voice_read(work)
    _mark_read(work)


def _give_up(work: Work) -> None:
    """Work a pass failed on every time: never read, so never a source nor context either."""
    if work.voice_session_id is not None:
        VoiceSession.objects.filter(pk=work.voice_session_id).update(
            memory_pass_done_at=timezone.now()
        )
    if work.message_ids:
        Message.objects.filter(
            pk__in=work.message_ids, memory_state=Message.MemoryState.UNREAD
        ).update(memory_state=Message.MemoryState.SKIPPED)


# --- Reading the turns --------------------------------------------------------------------------


# A voice session is owed until its pass is done; a clear (or switching memory back on) marks
# the sessions it puts out of reach as done, ended or not.
_VOICE_PENDING = Exists(
    VoiceSession.objects.filter(
        owner_id=OuterRef("owner_id"), ended_at__isnull=False, memory_pass_done_at__isnull=True
    )
)


def _next_work(memory: Memory) -> Work | None:
    voice = None
    if getattr(memory, "voice_pending", True):
        voice = (
            VoiceSession.objects.filter(
                owner_id=memory.owner_id, ended_at__isnull=False, memory_pass_done_at__isnull=True
            )
            .order_by("ended_at", "id")
            .first()
        )
    if voice is not None:
        turns: list[Turn] = [
            {"role": str(t.get("role")), "content": str(t.get("content"))} for t in voice.transcript
        ]
        start = voice.memory_turns_read
        taken = _fit_transcript(turns[start:])
        end = start + len(taken)
        return Work(
            task="voice",
            transcript=taken,
            # A long session is read over several passes; what came before goes as context.
            context=turns[max(0, start - CONTEXT_TURNS) : start],
            forget_requested=_asks_to_forget(taken),
            voice_session_id=voice.pk,
            voice_turns=(start, end),
            more=end < len(turns),
        )
    return _chat_work(memory)


def _chat_work(memory: Memory) -> Work | None:
    """Every turn no pass has read yet, oldest first, across conversations, within the
    transcript cap; what does not fit stays unread for the next round."""
    unread = list(
        Message.objects.filter(
            conversation__owner_id=memory.owner_id,
            conversation__temporary=False,
            memory_state=Message.MemoryState.UNREAD,
        )
        .order_by("id")
        .values("id", "conversation_id", "role", "content")[:UNREAD_TURNS_SCANNED]
    )
    if not unread:
        return None
    taken = _fit_transcript(unread)
    numbers: dict[int, int] = {}
    for row in taken:
        numbers.setdefault(row["conversation_id"], len(numbers) + 1)
    transcript = [
        {"role": r["role"], "content": r["content"], "conversation": numbers[r["conversation_id"]]}
        for r in taken
    ]
    return Work(
        task="rewrite",
        transcript=transcript,
        forget_requested=_asks_to_forget(transcript),
        context=_context(memory, taken, numbers),
        message_ids=tuple(r["id"] for r in taken),
        more=len(taken) < len(unread) or len(unread) == UNREAD_TURNS_SCANNED,
    )


def _context(memory: Memory, taken: list[Turn], numbers: dict[int, int]) -> list[Turn]:
    """The few turns just before the new ones in each conversation, already read by a pass:
    they help the model understand the new turns and are never a source. Nothing from before
    a clear goes along, and nothing a pass did not read (said with memory off)."""
    first_new: dict[int, int] = {}
    for row in taken:
        first_new.setdefault(row["conversation_id"], row["id"])
    context: list[Turn] = []
    for conversation_id, first_id in list(first_new.items())[:CONTEXT_CONVERSATIONS]:
        rows = Message.objects.filter(
            conversation_id=conversation_id,
            id__lt=first_id,
            id__gt=memory.context_from_id,
            memory_state=Message.MemoryState.READ,
        ).order_by("-id")
        context.extend(
            {
                "role": r["role"],
                "content": r["content"][:CONTEXT_TURN_CHARS],
                "conversation": numbers[conversation_id],
            }
            for r in reversed(rows.values("role", "content")[:CONTEXT_TURNS])
        )
    return context


def _asks_to_forget(turns: list[Turn]) -> bool:
    return any(t["role"] == "user" and is_forget_request(t["content"]) for t in turns)


def _fit_transcript(turns: list[Turn]) -> list[Turn]:
    """The oldest turns that fit in the transcript cap (SPEC §2: 20,000 tokens), in order; a
    single turn larger than the cap alone is cut to fit, so a pass always makes progress."""
    limit = settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT
    # A token is at least one byte: a transcript with fewer bytes than the cap fits uncounted.
    if sum(len(t["content"].encode()) + 4 for t in turns) <= limit:
        return turns
    kept: list[Turn] = []
    remaining = limit
    for turn in turns:
        cost = budget.count_tokens(turn["content"]) + 4
        if cost > remaining:
            if not kept:
                kept.append(
                    {**turn, "content": budget.truncate_to_tokens(turn["content"], limit - 4)}
                )
            break
        kept.append(turn)
        remaining -= cost
    return kept


# --- The model calls ----------------------------------------------------------------------------


def _ask(
    task: prompts.Task,
    lines: list[str],
    work: Work,
    *,
    model: str,
    known_good: Collection[str] = (),
    lines_tokens: int | None = None,
) -> tuple[list[str], int, llm.Completion]:
    """One memory model call: the rules and the data in, a validated list out.
    ``lines_tokens``: the size of ``lines`` when it is known (the stored list's)."""
    messages = prompts.memory_messages(
        task=task,
        lines=lines,
        transcript=work.transcript if task != "condense" else [],
        context=work.context if task != "condense" else [],
        forget_requested=work.forget_requested,
        assistant=settings.ASSISTANT_NAME,
        target_tokens=settings.MEMORY_TARGET_TOKENS,
        token_limit=settings.MEMORY_TOKEN_LIMIT,
        memory_tokens=budget.list_tokens(lines) if lines_tokens is None else lines_tokens,
        today=timezone.localdate(),
    )
    try:
        answer = llm.complete(model=model, messages=messages, timeout=settings.MEMORY_MODEL_TIMEOUT)
    except llm.ModelError as error:
        raise PassFailed(error.code, retryable=error.retryable) from None
    try:
        proposed = parse_answer(answer.text)
    except MalformedAnswer as error:
        # A truncated or garbled answer is an error, never an empty list.
        raise PassFailed(f"malformed_{error.reason}", retryable=True) from None
    validated = validate_lines(proposed, known_good=known_good)
    return validated.lines, sum(validated.refused.values()), answer


def _rewrite(memory: Memory, work: Work) -> Rewrite:
    # Stored lines already passed these rules: only what the model adds is checked again.
    trusted = memory.lines if memory.rules_version == RULES_VERSION else ()
    return _propose(
        list(memory.lines),
        work,
        model=settings.MEMORY_MODEL,
        known_good=frozenset(trusted),
        owner_id=memory.owner_id,
        tokens_before=memory.tokens,
    )


def propose_rewrite(
    *,
    lines: list[str],
    transcript: list[Turn],
    context: Sequence[Turn] = (),
    task: Literal["rewrite", "voice"] = "rewrite",
    model: str | None = None,
    forget_requested: bool | None = None,
) -> Rewrite:
    """Exactly what a pass runs — prompt, model call, parse, code-side validation, wipe guard,
    condense and cut over the cap — without touching the database (``manage.py memory_eval``).
    Raises PassFailed like a pass."""
    work = Work(
        task=task,
        transcript=list(transcript),
        context=list(context),
        forget_requested=(
            _asks_to_forget(list(transcript)) if forget_requested is None else forget_requested
        ),
    )
    return _propose(list(lines), work, model=model or settings.MEMORY_MODEL)


def _propose(
    lines: list[str],
    work: Work,
    *,
    model: str,
    known_good: Collection[str] = (),
    owner_id: int | None = None,
    tokens_before: int | None = None,
) -> Rewrite:
    task: prompts.Task = "voice" if work.task == "voice" else "rewrite"
    proposed, refused, answer = _ask(
        task, lines, work, model=model, known_good=known_good, lines_tokens=tokens_before
    )
    # Judged on what the model proposed: lines that newer code rules refuse are not its doing.
    if _looks_like_a_wipe(lines, len(proposed) + refused, forget_requested=work.forget_requested):
        raise PassFailed("wipe_refused", retryable=False)
    tokens_in, tokens_out, latency = answer.tokens_in, answer.tokens_out, answer.latency_ms
    condensed = cut = False
    unchanged = proposed == lines and tokens_before is not None
    tokens = tokens_before if unchanged else budget.list_tokens(proposed)
    if tokens > settings.MEMORY_TOKEN_LIMIT:
        proposed, condensed, cut, extra = fit_under_cap(
            owner_id=owner_id, lines=proposed, model=model
        )
        tokens = budget.list_tokens(proposed)
        tokens_in, tokens_out, latency = (
            tokens_in + extra[0],
            tokens_out + extra[1],
            latency + extra[2],
        )
    return Rewrite(proposed, tokens, refused, tokens_in, tokens_out, latency, condensed, cut)


def _looks_like_a_wipe(before: list[str], proposed: int, *, forget_requested: bool) -> bool:
    if forget_requested or len(before) < WIPE_MIN_LINES:
        return False
    return proposed < len(before) * WIPE_KEEP_SHARE


def fit_under_cap(
    *, owner_id: int | None, lines: list[str], model: str | None = None
) -> tuple[list[str], bool, bool, tuple[int, int, int]]:
    """Over the cap: a condense pass, then the positional cut as the last resort (SPEC §5).

    Returns the lines, whether they were condensed and cut, and the model usage. Events go to
    the trace when there is an owner (not for ``propose_rewrite``).
    """
    if budget.list_tokens(lines) <= settings.MEMORY_TOKEN_LIMIT:
        return lines, False, False, (0, 0, 0)
    model = model or settings.MEMORY_MODEL
    work = Work(task="condense", transcript=[], forget_requested=False)
    limit = settings.MEMORY_TOKEN_LIMIT
    before = list(lines)
    # One model call's input is capped too (SPEC §2: 50,000 tokens); the rules take some.
    call_room = settings.MEMORY_CALL_TOKEN_LIMIT - 3_000
    oversized = budget.positional_cut(lines, call_room)
    usage = (0, 0, 0)
    trace = record_event if owner_id is not None else _no_trace
    try:
        condensed, _, answer = _ask(
            "condense", oversized, work, model=model, known_good=frozenset(oversized)
        )
        usage = (answer.tokens_in, answer.tokens_out, answer.latency_ms)
        if budget.list_tokens(condensed) < settings.MEMORY_TARGET_TOKENS * CONDENSE_KEEP_SHARE:
            # Shortening an over-full list to almost nothing is a broken answer, not a condense.
            raise PassFailed("wipe_refused", retryable=False)
        trace(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CONDENSE,
            outcome="ok",
            before=before,
            after=condensed,
            model=model,
            latency_ms=answer.latency_ms,
            model_tokens_in=answer.tokens_in,
            model_tokens_out=answer.tokens_out,
        )
    except PassFailed as failure:
        trace(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CONDENSE,
            outcome=failure.code,
            before=before,
            after=before,
            model=model,
        )
        condensed = oversized
    if budget.list_tokens(condensed) <= limit:
        return condensed, True, False, usage
    final = budget.positional_cut(condensed, limit)
    trace(owner_id=owner_id, kind=MemoryEvent.Kind.CUT, outcome="ok", before=condensed, after=final)
    return final, True, True, usage


def _no_trace(**_: Any) -> None:
    return None
