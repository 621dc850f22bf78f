"""A pass's model calls: rules and data in, a validated list out (code decides what is stored),
the wipe guard, and the condense pass and positional cut over the cap.

``propose_rewrite`` runs the same without the database, for ``manage.py memory_eval``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
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
from memory.services import record_event, sources_of

# Keeping less than this share of a list of WIPE_MIN_LINES or more, unasked, is a broken answer.
WIPE_KEEP_SHARE = 0.5
WIPE_MIN_LINES = 4
# Answer bound, sized to what a pass is expected to change: new lines as the turns can hold
# them (a few per turn of the person, at most 16; none in a condense) and a few lines named
# (a correction, a plan passed, a merge), ~64 tokens an edit with its quote, and slack. A
# condense or a forget may name every line, and so may an answer cut at the bound, asked again
# once. A model that loops stops there: its answer fails, retried.
ANSWER_BASE_TOKENS = 256
ANSWER_TOKENS_PER_EDIT = 64
NEW_LINES_PER_PASS = 16
NEW_LINES_PER_TURN = 4
NAMED_LINES_PER_PASS = 8
NAMED_LINES_PER_TURN = 2
# A condense must keep this share of the target size (1,500 tokens), or the cut runs instead.
CONDENSE_KEEP_SHARE = 0.25


class PassFailed(Exception):
    """A pass could not produce a list; the saved list is untouched. Content-free.

    ``about_work``: the work may be the cause (refused, too long, unreadable, a wipe), so less
    work may pass; otherwise the model failed (``kind`` says how) and the work passes later."""

    def __init__(self, code: str, *, about_work: bool, kind: str | None = None) -> None:
        super().__init__(f"memory pass failed: {code}")
        self.code = code
        self.about_work = about_work
        self.kind = kind or code
        # A seam code the trace does not know is still an error.
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
    # Lines removed at the person's cited request, and each new line's cited turn.
    forgotten: tuple[str, ...] = ()
    cited: dict[str, int] = field(default_factory=dict)


def answer_token_bound(
    lines: Sequence[str], person_turns: int = NEW_LINES_PER_PASS, *, every_line: bool = False
) -> int:
    """``max_tokens`` of a memory call: enough to add what ``person_turns`` turns may say and
    name the lines a pass is expected to touch, or (``every_line``) each line shown once."""
    new = min(NEW_LINES_PER_PASS, NEW_LINES_PER_TURN * person_turns)
    named = NAMED_LINES_PER_PASS + NAMED_LINES_PER_TURN * person_turns
    return ANSWER_BASE_TOKENS + ANSWER_TOKENS_PER_EDIT * (
        (len(lines) if every_line else min(len(lines), named)) + new
    )


def _endpoint(model: str) -> dict[str, str]:
    """``MEMORY_MODEL_API_BASE`` and its key, for ``MEMORY_MODEL`` only."""
    if model != settings.MEMORY_MODEL:
        return {}
    base, key = settings.MEMORY_MODEL_API_BASE, settings.MEMORY_MODEL_API_KEY
    if not base:
        return {"api_key": key} if key else {}
    # A placeholder key: the chat's provider key never goes to a self-hosted server.
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
    sources: Mapping[str, provenance.Source] | None = None,
) -> tuple[edits.Applied, llm.Completion]:
    """One memory model call: rules and numbered list in, edits out, checked against their
    evidence and applied in code. ``lines_tokens``: the stored list's size, when known;
    ``sources``: each line's provenance (its date, and whether it is pinned)."""
    sources = sources or {}
    pinned = frozenset(
        i
        for i, line in enumerate(lines, start=1)
        if line in sources and provenance.is_pinned(sources[line])
    )
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
        learned=[sources[line]["learned_at"][:10] if line in sources else None for line in lines],
        pinned=pinned,
    )
    endpoint = _endpoint(model)
    shape = llm.structured_output(
        model,
        name="memory_edits",
        schema=edits.SCHEMA,
        mode=settings.MEMORY_MODEL_RESPONSE_FORMAT,
        api_base=endpoint.get("api_base", ""),
    )
    person_turns = len(work.person_turns()) if task != "condense" else 0
    every_line = answer_token_bound(lines, person_turns, every_line=True)
    call = {
        "model": model,
        "messages": llm.cache_prefix(model, messages),
        "timeout": settings.MEMORY_MODEL_TIMEOUT,
        "temperature": 0,
        "max_tokens": (
            every_line
            if task == "condense" or work.forget_requested
            else answer_token_bound(lines, person_turns)
        ),
        **endpoint,
    }
    try:
        answer = _complete(call, shape)
        # Cut at the bound, by the provider's word or, when it says nothing, by its count.
        cut = answer.truncated or answer.tokens_out >= call["max_tokens"]
        if cut and call["max_tokens"] < every_line:
            # More edits than a pass is expected to make: once more, with room for every line.
            first = answer
            answer = _complete({**call, "max_tokens": every_line}, shape)
            answer = replace(
                answer,
                tokens_in=answer.tokens_in + first.tokens_in,
                tokens_out=answer.tokens_out + first.tokens_out,
                latency_ms=answer.latency_ms + first.latency_ms,
            )
    except llm.ModelError as error:
        raise PassFailed(error.code, about_work=error.about_content, kind=error.kind) from None
    try:
        # A truncated, garbled or unplaceable answer is an error, never an empty list.
        proposed = edits.parse_answer(answer.text)
        applied = edits.apply_edits(
            lines,
            proposed,
            refuse=refusal_reason,
            known_good=known_good,
            evidence_=edits.Evidence(
                person_turns=work.person_turns() if task != "condense" else {},
                pinned=pinned,
                condense=task == "condense",
                learned={
                    i: sources[line]["learned_at"] if line in sources else None
                    for i, line in enumerate(lines, start=1)
                },
            ),
            buried=_buried(forgotten, said),
        )
    except MalformedAnswer as error:
        raise PassFailed(f"malformed_{error.reason}", about_work=True) from None
    return applied, answer


def _complete(call: dict[str, Any], shape: dict[str, Any]) -> llm.Completion:
    try:
        return llm.complete(**call, **shape)
    except llm.ModelError as error:
        if not (llm.refused_format(error) and _schema(shape)):
            raise
        # A server that refuses the schema by name gets JSON mode instead.
        return llm.complete(**call, response_format={"type": "json_object"})


def _schema(shape: dict[str, Any]) -> bool:
    return shape.get("response_format", {}).get("type") == "json_schema"


def _buried(forgotten: Collection[str], said: Sequence[provenance.Said]) -> edits.Buried:
    """A tombstoned text stays out unless the turn the model cites (or, uncited, any turn)
    restates that very fact and asks to remember it."""

    def buried(text: str, turn: int | None) -> bool:
        return tombstones.is_buried(text, forgotten) and not provenance.restated_and_remembered(
            text, said, turn=turn
        )

    return buried


def rewrite_for(memory: Memory, work: Work) -> Rewrite:
    # Stored lines passed these rules already: only additions are checked.
    trusted = memory.lines if memory.rules_version == RULES_VERSION else ()
    return _propose(
        list(memory.lines),
        work,
        model=settings.MEMORY_MODEL,
        known_good=frozenset(trusted),
        owner_id=memory.owner_id,
        tokens_before=memory.tokens,
        # A forgotten line is refused unless the person asks to remember it again.
        forgotten=tombstones.Buried(memory.pk),
        said=work.said(),
        sources=dict(zip(memory.lines, sources_of(memory), strict=False)),
    )


def propose_rewrite(
    *,
    lines: list[str],
    transcript: list[Turn],
    context: Sequence[Turn] = (),
    task: Literal["rewrite", "voice"] = "rewrite",
    model: str | None = None,
    forget_requested: bool | None = None,
    sources: Mapping[str, provenance.Source] | None = None,
) -> Rewrite:
    """Exactly what a pass runs, without the database (``manage.py memory_eval``); ``sources``:
    the lines' provenance (dates, pinned). Raises PassFailed like a pass."""
    work = Work(
        task=task,
        transcript=list(transcript),
        context=list(context),
        forget_requested=(
            asks_to_forget(list(transcript)) if forget_requested is None else forget_requested
        ),
    )
    return _propose(list(lines), work, model=model or settings.MEMORY_MODEL, sources=sources)


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
    sources: Mapping[str, provenance.Source] | None = None,
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
        sources=sources,
    )
    # Judged on what the model removed with no evidence (openly or via duplicates), not on
    # what a cited turn asked to forget, nor on lines newer rules refuse.
    if _looks_like_a_wipe(lines, applied.uncited + applied.folded + applied.rewritten):
        raise PassFailed("wipe_refused", about_work=True)
    proposed, refused = applied.lines, sum(applied.refused.values())
    tokens_in, tokens_out, latency = answer.tokens_in, answer.tokens_out, answer.latency_ms
    condensed = cut = False
    unchanged = proposed == lines
    tokens = (
        tokens_before if unchanged and tokens_before is not None else budget.list_tokens(proposed)
    )
    if tokens > settings.MEMORY_TOKEN_LIMIT:
        # A line this pass learned from a remember request is pinned already.
        now = timezone.now()
        learned_now = {
            line: provenance.learned_from(
                line, said, voice=work.task == "voice", at=now, turn=applied.cited.get(line)
            )
            for line in proposed
            if line not in (sources or {})
        }
        proposed, condensed, cut, extra = fit_under_cap(
            owner_id=owner_id,
            lines=proposed,
            model=model,
            sources={**(sources or {}), **learned_now},
            forgotten=forgotten,
        )
        tokens = budget.list_tokens(proposed)
        tokens_in, tokens_out, latency = (
            tokens_in + extra[0],
            tokens_out + extra[1],
            latency + extra[2],
        )
    return Rewrite(
        proposed,
        tokens,
        refused,
        tokens_in,
        tokens_out,
        latency,
        condensed,
        cut,
        forgotten=tuple(applied.forgotten),
        cited=dict(applied.cited),
    )


def _looks_like_a_wipe(before: list[str], removed: int) -> bool:
    """Most of a list removed with no turn of the person cited: a broken answer."""
    if len(before) < WIPE_MIN_LINES:
        return False
    return len(before) - removed < len(before) * WIPE_KEEP_SHARE


def fit_under_cap(
    *,
    owner_id: int | None,
    lines: list[str],
    model: str | None = None,
    sources: Mapping[str, provenance.Source] | None = None,
    forgotten: Collection[str] = (),
) -> tuple[list[str], bool, bool, tuple[int, int, int]]:
    """Over the cap: a condense pass, then the positional cut as last resort (SPEC §5).

    Returns the lines, whether condensed and cut, and usage. Traced when there is an owner.
    """
    if budget.list_tokens(lines) <= settings.MEMORY_TOKEN_LIMIT:
        return lines, False, False, (0, 0, 0)
    model = model or settings.MEMORY_MODEL
    work = Work(task="condense", transcript=[], forget_requested=False)
    limit = settings.MEMORY_TOKEN_LIMIT
    before = list(lines)
    # One call's input is capped too (SPEC §2: 50,000 tokens); the rules take some.
    call_room = settings.MEMORY_CALL_TOKEN_LIMIT - 3_000
    known = sources or {}
    pinned = frozenset(
        line for line in lines if line in known and provenance.is_pinned(known[line])
    )
    oversized = budget.positional_cut(lines, call_room, keep_first=pinned)
    usage = (0, 0, 0)
    trace: Callable[..., None] = record_event if owner_id is not None else _no_trace
    try:
        applied, answer = _ask(
            "condense",
            oversized,
            work,
            model=model,
            known_good=frozenset(oversized),
            sources=sources,
            # No turn is read: a condense can never write a forgotten line back.
            forgotten=forgotten,
        )
        condensed = applied.lines
        usage = (answer.tokens_in, answer.tokens_out, answer.latency_ms)
        if budget.list_tokens(condensed) < settings.MEMORY_TARGET_TOKENS * CONDENSE_KEEP_SHARE:
            # Shrinking an over-full list to almost nothing is a broken answer.
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
    final = budget.positional_cut(condensed, limit, keep_first=pinned)
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
