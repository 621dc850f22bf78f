"""The model calls of a pass: the rules and the data in, a validated list out (code decides
what is stored), the wipe guard, and the condense pass and positional cut over the cap.

``propose_rewrite`` runs exactly this without the database, for ``manage.py memory_eval``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.utils import timezone

import llm
from memory import tombstones
from memory.engine.reading import Turn, Work, asks_to_forget
from memory.filters.gate import RULES_VERSION, refusal_reason
from memory.models import Memory, MemoryEvent, Outcome
from memory.rules import budget, edits, prompts, provenance
from memory.rules.lines import MalformedAnswer
from memory.services import record_event

# A rewrite that keeps fewer than this share of a list of at least WIPE_MIN_LINES lines, when
# nobody asked to forget, is treated as a broken answer: the saved list stays as it was.
WIPE_KEEP_SHARE = 0.5
WIPE_MIN_LINES = 4
# The answer's token bound: room for an edit of every line shown plus a few new ones (an add or
# replace of a 160-character line is about 60 tokens with its JSON), and some slack.
ANSWER_BASE_TOKENS = 256
ANSWER_TOKENS_PER_EDIT = 64
NEW_LINES_PER_PASS = 16
# A condense answer must keep at least this share of the rewrite's target size (1,500 tokens),
# or it is refused like a wipe and the positional cut runs instead.
CONDENSE_KEEP_SHARE = 0.25


class PassFailed(Exception):
    """A pass could not produce a list; the saved list is untouched. Content-free.

    ``about_work``: the failure may be about this work (its content refused or too long, an
    answer that cannot be read or would wipe the list), so less work may pass; otherwise the
    memory model itself failed (its provider or configuration: ``kind`` says how), and the
    same work passes once it answers again."""

    def __init__(self, code: str, *, about_work: bool, kind: str | None = None) -> None:
        super().__init__(f"memory pass failed: {code}")
        self.code = code
        self.about_work = about_work
        self.kind = kind or code
        # A code of the seam's that the trace does not know yet is still an error.
        self.outcome = Outcome(code) if code in Outcome.values else Outcome.ERROR


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


def answer_token_bound(lines: Sequence[str]) -> int:
    """``max_tokens`` of a memory call: enough to edit every line shown and add a few."""
    return ANSWER_BASE_TOKENS + ANSWER_TOKENS_PER_EDIT * (len(lines) + NEW_LINES_PER_PASS)


def _endpoint(model: str) -> dict[str, str]:
    """Where ``MEMORY_MODEL`` is served when configured (``MEMORY_MODEL_API_BASE``), with its
    own key. Only for that model: ``memory_eval --model`` of another goes to its provider."""
    if model != settings.MEMORY_MODEL:
        return {}
    base, key = settings.MEMORY_MODEL_API_BASE, settings.MEMORY_MODEL_API_KEY
    if not base:
        return {"api_key": key} if key else {}
    # A placeholder without a key of its own: the provider's usual key (the chat's) is never
    # sent to a server of one's own; most local servers take any key.
    return {"api_base": base, "api_key": key or "unused"}


def _ask(
    task: prompts.Task,
    lines: list[str],
    work: Work,
    *,
    model: str,
    known_good: Collection[str] = (),
    lines_tokens: int | None = None,
    forgotten: Collection[str] = (),
    said: Sequence[provenance.Said] = (),
) -> tuple[edits.Applied, llm.Completion]:
    """One memory model call: the rules and the numbered list in, edits out, applied and
    validated in code. ``lines_tokens``: the size of ``lines`` when it is known (the stored
    list's)."""
    messages = prompts.memory_messages(
        task=task,
        lines=lines,
        transcript=work.transcript if task != "condense" else [],
        context=work.context if task != "condense" else [],
        forget_requested=work.forget_requested,
        assistant=settings.ASSISTANT_NAME,
        target_tokens=settings.MEMORY_TARGET_TOKENS,
        target_shape=(settings.MEMORY_TARGET_LINES, settings.MEMORY_TARGET_LINE_CHARS),
        token_limit=settings.MEMORY_TOKEN_LIMIT,
        memory_tokens=budget.list_tokens(lines) if lines_tokens is None else lines_tokens,
        today=timezone.localdate(),
    )
    try:
        answer = llm.complete(
            model=model,
            messages=llm.cache_prefix(model, messages),
            timeout=settings.MEMORY_MODEL_TIMEOUT,
            temperature=0,
            max_tokens=answer_token_bound(lines),
            **llm.structured_output(model, name="memory_edits", schema=edits.SCHEMA),
            **_endpoint(model),
        )
    except llm.ModelError as error:
        raise PassFailed(error.code, about_work=error.about_content, kind=error.kind) from None
    try:
        proposed = edits.parse_answer(answer.text)
    except MalformedAnswer as error:
        # A truncated or garbled answer is an error, never an empty list.
        raise PassFailed(f"malformed_{error.reason}", about_work=True) from None
    refuse = _refusing_forgotten(forgotten, said) if forgotten else refusal_reason
    applied = edits.apply_edits(lines, proposed, refuse=refuse, known_good=known_good)
    return applied, answer


def _refusing_forgotten(
    forgotten: Collection[str], said: Sequence[provenance.Said]
) -> edits.Refuse:
    """The filters, and "forgotten" for a line the person made memory forget (a tombstone),
    unless they said it again in this work and asked to remember it."""

    def refuse(text: str) -> str | None:
        if tombstones.is_buried(text, forgotten) and not provenance.restated_and_remembered(
            text, said
        ):
            return "forgotten"
        return refusal_reason(text)

    return refuse


def rewrite_for(memory: Memory, work: Work) -> Rewrite:
    # Stored lines already passed these rules: only what the model adds is checked again.
    trusted = memory.lines if memory.rules_version == RULES_VERSION else ()
    return _propose(
        list(memory.lines),
        work,
        model=settings.MEMORY_MODEL,
        known_good=frozenset(trusted),
        owner_id=memory.owner_id,
        tokens_before=memory.tokens,
        # What the person made memory forget is refused, unless they ask to remember it again.
        forgotten=tombstones.buried(memory.pk),
        said=work.said(),
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
            asks_to_forget(list(transcript)) if forget_requested is None else forget_requested
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
    forgotten: Collection[str] = (),
    said: Sequence[provenance.Said] = (),
) -> Rewrite:
    task: prompts.Task = "voice" if work.task == "voice" else "rewrite"
    applied, answer = _ask(
        task,
        lines,
        work,
        model=model,
        known_good=known_good,
        lines_tokens=tokens_before,
        forgotten=forgotten,
        said=said,
    )
    # Judged on what the model removed, openly or by rewriting lines into duplicates: lines that
    # newer code rules refuse are not its doing.
    dropped = applied.removed + applied.folded
    if _looks_like_a_wipe(lines, dropped, forget_requested=work.forget_requested):
        raise PassFailed("wipe_refused", about_work=True)
    proposed, refused = applied.lines, sum(applied.refused.values())
    tokens_in, tokens_out, latency = answer.tokens_in, answer.tokens_out, answer.latency_ms
    condensed = cut = False
    unchanged = proposed == lines
    tokens = (
        tokens_before if unchanged and tokens_before is not None else budget.list_tokens(proposed)
    )
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


def _looks_like_a_wipe(before: list[str], removed: int, *, forget_requested: bool) -> bool:
    """Most of a list removed when nobody asked to forget: a broken answer, not a rewrite."""
    if forget_requested or len(before) < WIPE_MIN_LINES:
        return False
    return len(before) - removed < len(before) * WIPE_KEEP_SHARE


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
    trace: Callable[..., None] = record_event if owner_id is not None else _no_trace
    try:
        applied, answer = _ask(
            "condense", oversized, work, model=model, known_good=frozenset(oversized)
        )
        condensed = applied.lines
        usage = (answer.tokens_in, answer.tokens_out, answer.latency_ms)
        if budget.list_tokens(condensed) < settings.MEMORY_TARGET_TOKENS * CONDENSE_KEEP_SHARE:
            # Shortening an over-full list to almost nothing is a broken answer, not a condense.
            raise PassFailed("wipe_refused", about_work=True)
        trace(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CONDENSE,
            outcome=Outcome.OK,
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
    trace(
        owner_id=owner_id,
        kind=MemoryEvent.Kind.CUT,
        outcome=Outcome.OK,
        before=condensed,
        after=final,
    )
    return final, True, True, usage


def _no_trace(**_: Any) -> None:
    return None
