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
from collections.abc import Collection
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.conf import settings
from django.db import transaction
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
EPOCH = datetime(2000, 1, 1, tzinfo=UTC)  # "every turn is readable", for comparisons
# How many unread messages a pass looks at to find the conversations that moved.
FRESH_TURNS_SCANNED = 500
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


@dataclass(frozen=True)
class Work:
    """What one pass reads: transcript turns and the marks that say they were consumed."""

    task: prompts.Task
    transcript: list[dict[str, str]]
    forget_requested: bool
    last_message_id: int = 0
    voice_session_id: int | None = None


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
    sweeper enqueues it again. The lease outlives the task's hard time limit, so a live pass
    never loses it.
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
        )
    )
    return lease if claimed == 1 else None


def _release(memory_id: int, lease: datetime, *, answered: bool, retry_in: int = 0) -> bool:
    """Drop our lease; if answered, mark the request done unless a newer trigger came in.

    Returns whether this worker should take another round (a newer trigger came in).
    """
    mine = Memory.objects.filter(pk=memory_id, lease_until=lease)
    if answered:
        if mine.filter(pass_requested_at=F("pass_claimed_at")).update(
            lease_until=None, pass_requested=False
        ):
            return False  # the usual case: one UPDATE, and nothing more to do
        return bool(mine.update(lease_until=None))
    mine.update(lease_until=None, pass_not_before=timezone.now() + timedelta(seconds=retry_in))
    return False


def run_pass(*, memory_id: int, retry_in: int = 0) -> PassResult:
    """Run the owed pass(es) of one memory; safe to call twice or late (it then does nothing).

    ``retry_in``: after a failure that may pass, no pass runs for that many seconds (the task
    retries then; the sweeper waits too).
    """
    result = PassResult("not_owed")
    for _ in range(MAX_ROUNDS):
        lease = _claim(memory_id)
        if lease is None:
            break
        result = PassResult("error", retry=True)
        try:
            result = _drain(memory_id)
        finally:
            # Release before the next claim: a trigger that came in during this round moved
            # pass_requested_at, so the request stays owed and the claim below takes it.
            again = _release(memory_id, lease, answered=not result.retry, retry_in=retry_in)
        if not again:
            break
    return result


def drop_pass(*, memory_id: int) -> None:
    """Give up on a pass after its last retry: the work it choked on counts as read (a voice
    session that always fails must not block every later pass), the request is no longer owed,
    and the trace says so. The list stays as it was."""
    memory = Memory.objects.filter(pk=memory_id).first()
    if memory is None:
        return
    work = _next_work(memory)
    if work is not None:
        _consume(memory, work)
    # Only the request that failed: a trigger that came in since is still owed.
    Memory.objects.filter(pk=memory_id, pass_requested_at=F("pass_claimed_at")).update(
        pass_requested=False, pass_not_before=None
    )
    record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.PASS,
        outcome="dropped",
        before=memory.lines,
        after=memory.lines,
    )


def _drain(memory_id: int) -> PassResult:
    """Consume every piece of owed work: each ended voice session, then the chat turns."""
    outcome = PassResult("no_work")
    for _ in range(MAX_ROUNDS * 2):
        step = _apply_next(memory_id)
        if step.retry:
            return step
        if step.outcome != "no_work":
            outcome = step
        # A chat pass reads every turn up to now; later turns come with their own trigger.
        if not step.more:
            return outcome
    return outcome


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
        if not any(turn["role"] == "user" for turn in work.transcript):
            # Nothing the person said (say, only a reply that landed after a clear): the
            # assistant's words are never a source of facts, so there is nothing to ask.
            _consume(memory, work)
            return PassResult("no_work", more=work.task == "voice")
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
            # A permanent failure still consumes the work, or every later pass would choke on it.
            _consume(memory, work)
            return PassResult(failure.code, more=work.task == "voice")
        if _store(memory, work, rewrite):
            outcome = "unchanged" if rewrite.lines == memory.lines else "ok"
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
            return PassResult(outcome, more=work.task == "voice")
        # Lost the compare-and-set: re-read the list (and the turns: a clear moves the floor).
    record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.PASS,
        outcome="conflict",
        before=memory.lines,
        after=memory.lines,
    )
    return PassResult("conflict", retry=True)


def _store(memory: Memory, work: Work, rewrite: Rewrite) -> bool:
    """Write the list and mark the work consumed, all or nothing."""
    # One UPDATE needs no transaction of its own; a voice pass also marks its session.
    with transaction.atomic() if work.voice_session_id is not None else nullcontext():
        extra: dict[str, object] = {}
        if work.last_message_id:
            extra["turns_seen_until"] = work.last_message_id
        if rewrite.lines == memory.lines:
            # The usual result of a pass. Still a compare-and-set, but the version stays, so a
            # client holding it (If-Match) is not told the list changed when it did not.
            # ``version=F("version")`` keeps the UPDATE real when nothing else changes (a voice
            # pass has no turns to mark), so a match is never mistaken for a lost race.
            written = Memory.objects.filter(pk=memory.pk, version=memory.version).update(
                version=F("version"), rules_version=RULES_VERSION, **extra
            )
        else:
            written = write_lines(
                memory=memory,
                lines=rewrite.lines,
                tokens=rewrite.tokens,
                rules_version=RULES_VERSION,
                **extra,
            )
        if not written:
            return False
        if work.voice_session_id is not None:
            VoiceSession.objects.filter(pk=work.voice_session_id).update(
                memory_pass_done_at=timezone.now()
            )
    return True


def _consume(memory: Memory, work: Work) -> None:
    if work.voice_session_id is not None:
        VoiceSession.objects.filter(pk=work.voice_session_id).update(
            memory_pass_done_at=timezone.now()
        )
    if work.last_message_id:
        Memory.objects.filter(pk=memory.pk, version=memory.version).update(
            turns_seen_until=work.last_message_id
        )


# --- Reading the turns --------------------------------------------------------------------------


# A session counts only if it started after the floor: speech from before a clear (or from
# while memory was off) is never read, even when the session ends later.
_VOICE_PENDING = Exists(
    VoiceSession.objects.filter(
        owner_id=OuterRef("owner_id"),
        created_at__gt=Coalesce(OuterRef("reads_turns_after"), Value(EPOCH)),
        ended_at__isnull=False,
        memory_pass_done_at__isnull=True,
    )
)


def _next_work(memory: Memory) -> Work | None:
    voice = None
    if getattr(memory, "voice_pending", True):
        voice = (
            VoiceSession.objects.filter(
                owner_id=memory.owner_id,
                created_at__gt=memory.reads_turns_after or EPOCH,
                ended_at__isnull=False,
                memory_pass_done_at__isnull=True,
            )
            .order_by("ended_at", "id")
            .first()
        )
    if voice is not None:
        turns = [
            {"role": str(t.get("role")), "content": str(t.get("content"))} for t in voice.transcript
        ]
        return Work(
            task="voice",
            transcript=_cap_transcript(turns),
            forget_requested=_asks_to_forget(turns),
            voice_session_id=voice.pk,
        )
    return _chat_work(memory)


def _chat_work(memory: Memory) -> Work | None:
    readable = Message.objects.filter(
        conversation__owner_id=memory.owner_id,
        conversation__temporary=False,
        id__gt=memory.reads_turns_from_id,
    )
    if memory.reads_turns_after is not None:
        readable = readable.filter(created_at__gt=memory.reads_turns_after)
    fresh = list(
        readable.filter(id__gt=memory.turns_seen_until)
        .order_by("-id")
        .values_list("id", "conversation_id")[:FRESH_TURNS_SCANNED]
    )
    if not fresh:
        return None
    last_id = fresh[0][0]
    conversation_ids = list(dict.fromkeys(conversation_id for _, conversation_id in fresh))
    turns: list[dict[str, str]] = []
    # The most recently active conversation goes last, so the transcript cap trims the oldest.
    for conversation_id in reversed(conversation_ids):
        recent = readable.filter(conversation_id=conversation_id, id__lte=last_id).order_by("-id")
        rows = list(recent.values("role", "content")[: settings.MEMORY_TURNS_PER_PASS])
        turns.extend({"role": r["role"], "content": r["content"]} for r in reversed(rows))
    return Work(
        task="rewrite",
        transcript=_cap_transcript(turns),
        forget_requested=_asks_to_forget(turns),
        last_message_id=last_id,
    )


def _asks_to_forget(turns: list[dict[str, str]]) -> bool:
    return any(t["role"] == "user" and is_forget_request(t["content"]) for t in turns)


def _cap_transcript(turns: list[dict[str, str]]) -> list[dict[str, str]]:
    """Keep the newest turns within the transcript cap (SPEC §2: 20,000 tokens)."""
    # A token is at least one byte: a transcript with fewer bytes than the cap fits uncounted.
    if sum(len(t["content"].encode()) + 4 for t in turns) <= settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT:
        return turns
    kept: list[dict[str, str]] = []
    remaining = settings.MEMORY_TRANSCRIPT_TOKEN_LIMIT
    for turn in reversed(turns):
        cost = budget.count_tokens(turn["content"]) + 4
        if cost > remaining:
            if remaining > 50:
                kept.append(
                    {
                        "role": turn["role"],
                        "content": budget.truncate_to_tokens(turn["content"], remaining - 4),
                    }
                )
            break
        kept.append(turn)
        remaining -= cost
    return list(reversed(kept))


# --- The model calls ----------------------------------------------------------------------------


def _ask(
    task: prompts.Task, lines: list[str], work: Work, *, known_good: Collection[str] = ()
) -> tuple[list[str], int, llm.Completion]:
    """One memory model call: the rules and the data in, a validated list out."""
    messages = prompts.memory_messages(
        task=task,
        lines=lines,
        transcript=work.transcript if task != "condense" else [],
        forget_requested=work.forget_requested,
        assistant=settings.ASSISTANT_NAME,
        target_tokens=settings.MEMORY_TARGET_TOKENS,
    )
    try:
        answer = llm.complete(
            model=settings.MEMORY_MODEL, messages=messages, timeout=settings.MEMORY_MODEL_TIMEOUT
        )
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
    task: prompts.Task = "voice" if work.task == "voice" else "rewrite"
    # Stored lines already passed these rules: only what the model adds is checked again.
    trusted = memory.lines if memory.rules_version == RULES_VERSION else ()
    lines, refused, answer = _ask(task, list(memory.lines), work, known_good=frozenset(trusted))
    # Judged on what the model proposed: lines that newer code rules refuse are not its doing.
    proposed = len(lines) + refused
    if _looks_like_a_wipe(memory.lines, proposed, forget_requested=work.forget_requested):
        raise PassFailed("wipe_refused", retryable=False)
    tokens_in, tokens_out, latency = answer.tokens_in, answer.tokens_out, answer.latency_ms
    condensed = cut = False
    tokens = memory.tokens if lines == memory.lines else budget.list_tokens(lines)
    if tokens > settings.MEMORY_TOKEN_LIMIT:
        lines, condensed, cut, extra = fit_under_cap(owner_id=memory.owner_id, lines=lines)
        tokens = budget.list_tokens(lines)
        tokens_in, tokens_out, latency = (
            tokens_in + extra[0],
            tokens_out + extra[1],
            latency + extra[2],
        )
    return Rewrite(lines, tokens, refused, tokens_in, tokens_out, latency, condensed, cut)


def _looks_like_a_wipe(before: list[str], proposed: int, *, forget_requested: bool) -> bool:
    if forget_requested or len(before) < WIPE_MIN_LINES:
        return False
    return proposed < len(before) * WIPE_KEEP_SHARE


def fit_under_cap(
    *, owner_id: int, lines: list[str]
) -> tuple[list[str], bool, bool, tuple[int, int, int]]:
    """Over the cap: a condense pass, then the positional cut as the last resort (SPEC §5).

    Returns the lines, whether they were condensed and cut, and the model usage.
    """
    if budget.list_tokens(lines) <= settings.MEMORY_TOKEN_LIMIT:
        return lines, False, False, (0, 0, 0)
    work = Work(task="condense", transcript=[], forget_requested=False)
    limit = settings.MEMORY_TOKEN_LIMIT
    before = list(lines)
    # One model call's input is capped too (SPEC §2: 50,000 tokens); the rules take some.
    call_room = settings.MEMORY_CALL_TOKEN_LIMIT - 3_000
    oversized = budget.positional_cut(lines, call_room)
    usage = (0, 0, 0)
    try:
        condensed, _, answer = _ask("condense", oversized, work, known_good=frozenset(oversized))
        usage = (answer.tokens_in, answer.tokens_out, answer.latency_ms)
        if budget.list_tokens(condensed) < settings.MEMORY_TARGET_TOKENS * CONDENSE_KEEP_SHARE:
            # Shortening an over-full list to almost nothing is a broken answer, not a condense.
            raise PassFailed("wipe_refused", retryable=False)
        record_event(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CONDENSE,
            outcome="ok",
            before=before,
            after=condensed,
            model=settings.MEMORY_MODEL,
            latency_ms=answer.latency_ms,
            model_tokens_in=answer.tokens_in,
            model_tokens_out=answer.tokens_out,
        )
    except PassFailed as failure:
        record_event(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CONDENSE,
            outcome=failure.code,
            before=before,
            after=before,
            model=settings.MEMORY_MODEL,
        )
        condensed = oversized
    if budget.list_tokens(condensed) <= limit:
        return condensed, True, False, usage
    final = budget.positional_cut(condensed, limit)
    record_event(
        owner_id=owner_id,
        kind=MemoryEvent.Kind.CUT,
        outcome="ok",
        before=condensed,
        after=final,
    )
    return final, True, True, usage
