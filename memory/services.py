"""Memory use-cases: the only writers of ``Memory``.

- Every write is a compare-and-set on ``version`` and bumps it.
- No model call runs inside a transaction or under a row lock.
- Nothing here logs, raises or records line or message text.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import BigIntegerField, F
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from core import batch, erasures
from core.db import retry_on_lock_conflict
from core.errors import Conflict, Invalid, NotFound, Stale
from memory import history, owners, scheduling, texts, tombstones, turns
from memory.filters.gate import RULES_VERSION, refusal_reason
from memory.models import Memory, MemoryEvent, Outcome
from memory.queueing import request_pass
from memory.rules import budget, changes, prompts, provenance
from memory.rules.lines import clean_line, line_key

log = logging.getLogger(__name__)


class StaleVersion(Stale):
    """The list changed since the version the caller saw (HTTP 412)."""

    detail = "The memory changed since you loaded it. Reload and try again."


class LineNotFound(NotFound):
    """No line at that index (HTTP 404): the list changed since the person saw it."""

    level = Stale.level  # on a page: it was out of date, as for a stale version


class LineRefused(Invalid):
    """A person's line refused by the model's rules (HTTP 400); ``reason`` is a code, never text."""

    code = "line_refused"

    def __init__(self, reason: str) -> None:
        super().__init__(detail=texts.LINE_REFUSED[reason], reason=reason)
        self.reason = reason


class MemoryFull(Conflict):
    """The line would take the list over its cap (HTTP 409)."""

    code = "memory_full"
    detail = texts.MEMORY_FULL


class OwnerGone(NotFound):
    """The owner was deleted or merged away mid-request (HTTP 404)."""


@contextmanager
def owner_still_there() -> Iterator[None]:
    """Create an owner's rows, or OwnerGone if the owner was deleted meanwhile."""
    try:
        with transaction.atomic():
            yield
    except IntegrityError:
        raise OwnerGone from None


@dataclass(frozen=True)
class LineItem:
    """One line as the person sees it, with its source (``memory.rules.provenance``).
    ``conversation`` and ``title`` are None for a hand-written line or a deleted conversation."""

    text: str
    kind: str
    conversation: int | None
    title: str | None
    learned_at: datetime
    changed_at: datetime
    # Written or asked for by the person: a background pass never changes it on its own.
    pinned: bool = False
    # The message it was learned from, while its conversation is there to link to.
    message: int | None = None
    # The assistant an imported line came from.
    product: str | None = None


@dataclass
class MemoryView:
    """What a person sees of their memory: what the model receives, with each line's source."""

    lines: list[str]
    tokens: int
    token_limit: int
    enabled: bool
    version: int
    updated_at: datetime | None = field(default=None)
    items: list[LineItem] = field(default_factory=list)
    # Why the safety check last removed saved lines ("secret", …) and when, for 30 days.
    screened: list[str] = field(default_factory=list)
    screened_at: datetime | None = None

    @property
    def count(self) -> int:
        return len(self.lines)


def lock_memory(*, owner_id: int) -> int | None:
    """Lock the owner's memory row until the transaction ends; its id, or None if there is none."""
    locked = Memory.objects.select_for_update().filter(owner_id=owner_id)
    return locked.values_list("pk", flat=True).first()


def get_memory(*, owner_id: int) -> Memory:
    """The owner's memory row, created empty on first use."""
    memory = Memory.objects.filter(owner_id=owner_id).first()
    if memory is None:
        with owner_still_there():
            memory, _ = Memory.objects.get_or_create(owner_id=owner_id)
    return memory


def view_memory(*, owner_id: int) -> MemoryView:
    """The memory as the person sees it (settings page, API, export)."""
    memory = get_memory(owner_id=owner_id)
    screened, screened_at = history.screened_lately(memory_id=memory.pk)
    return MemoryView(
        lines=list(memory.lines),
        tokens=memory.tokens,
        token_limit=settings.MEMORY_TOKEN_LIMIT,
        enabled=memory.enabled,
        version=memory.version,
        updated_at=memory.updated_at,
        items=line_items(memory),
        screened=screened,
        screened_at=screened_at,
    )


def state_of(*, owner_id: int) -> str:
    """What the Settings page compares to know whether its list is the server's, in one
    indexed read: the list's version and the switch. A visitor's is the empty list's."""
    row = Memory.objects.filter(owner_id=owner_id).values_list("version", "enabled").first()
    return shown_state(*row) if row else shown_state(0, True)


def shown_state(version: int, enabled: bool) -> str:
    return f"{version}.{int(enabled)}"


def line_items(memory: Memory) -> list[LineItem]:
    """Each line with its source and conversation title; only the owner's titles are named."""
    sources = sources_of(memory)
    wanted = {src["conversation"] for src in sources if src["conversation"] is not None}
    titles = turns.store().titles(memory.owner_id, wanted) if wanted else {}
    items = []
    for line, src in zip(memory.lines, sources, strict=True):
        conversation = src["conversation"]
        title = None if conversation is None else titles.get(conversation)
        items.append(
            LineItem(
                text=line,
                kind=src["kind"],
                conversation=None if title is None else conversation,
                title=title,
                learned_at=datetime.fromisoformat(src["learned_at"]),
                changed_at=datetime.fromisoformat(src["changed_at"]),
                pinned=provenance.is_pinned(src),
                message=None if title is None else src.get("message"),
                product=src.get("product"),
            )
        )
    return items


def record_event(**fields: Any) -> None:
    """Append a content-free line to the operations trace (counts, never text): ``event``."""
    event(**fields).save(force_insert=True)


def event(
    *,
    owner_id: int,
    kind: str,
    outcome: Outcome,
    before: list[str],
    after: list[str],
    tokens_before: int | None = None,
    tokens_after: int | None = None,
    **numbers: int | str,
) -> MemoryEvent:
    """A trace line, not yet saved (to go in a batch)."""
    return MemoryEvent(
        owner_id=owner_id,
        kind=kind,
        outcome=outcome,
        lines_before=len(before),
        lines_after=len(after),
        tokens_before=budget.list_tokens(before) if tokens_before is None else tokens_before,
        tokens_after=budget.list_tokens(after) if tokens_after is None else tokens_after,
        **numbers,
    )


def write_lines(*, memory: Memory, **change: Any) -> bool:
    """Compare-and-set the list at ``memory.version`` and record the new version
    (``lines_written`` says what ``change`` holds). False when someone else wrote first (pass,
    clear, delete, switch, account deletion): the caller re-reads; nothing is overwritten."""
    written = batch.write(*lines_written(memory=memory, **change))
    if written:
        history.prune_if_due(memory_id=memory.pk, version=memory.version + 1)
    return written


def lines_written(
    *,
    memory: Memory,
    lines: list[str],
    kind: str,
    tokens: int | None = None,
    rules_version: int | None = None,
    pairs: Iterable[tuple[str, str]] = (),
    origin: provenance.Origin | None = None,
) -> list[batch.Write]:
    """The writes of ``write_lines``: the list's compare-and-set first, then its version.

    ``pairs``: lines changed from → to. ``rules_version``: the filters' version, when it changes.
    ``origin``: source of new lines (default from ``kind``)."""
    now = timezone.now()
    change = changes.diff(memory.lines, lines, pairs=pairs)
    sources = provenance.carry(
        before=memory.lines,
        sources=sources_of(memory),
        after=lines,
        changed=change.changed,
        origin=origin or default_origin(kind, now),
        at=now,
    )
    return [
        batch.Update(
            Memory.objects.filter(pk=memory.pk, version=memory.version),
            {
                "lines": lines,
                "sources": sources,
                "tokens": budget.list_tokens(lines) if tokens is None else tokens,
                "version": F("version") + 1,
                "updated_at": now,
                "rules_version": F("rules_version") if rules_version is None else rules_version,
            },
            expect=1,
        ),
        *history.recorded(
            memory_id=memory.pk,
            version=memory.version + 1,
            before=memory.lines,
            after=lines,
            kind=kind,
            sources=sources,
            change=change,
        ),
    ]


# Default source of new lines, by operation.
_KIND_OF_WRITE: dict[str, str] = {
    MemoryEvent.Kind.PASS: provenance.Kind.LEARNED,
    MemoryEvent.Kind.VOICE_PASS: provenance.Kind.VOICE,
    MemoryEvent.Kind.ADD_LINE: provenance.Kind.ADDED,
    MemoryEvent.Kind.EDIT_LINE: provenance.Kind.EDITED,
    MemoryEvent.Kind.MERGE: provenance.Kind.MERGED,
}


def default_origin(kind: str, at: datetime) -> provenance.Origin:
    """Default origin of a write's new lines; a hand edit's are the person's own."""
    made = provenance.source(_KIND_OF_WRITE.get(kind, provenance.Kind.LEARNED), at)
    return provenance.Origin(new=lambda _line: made, by_hand=kind == MemoryEvent.Kind.EDIT_LINE)


def sources_of(memory: Memory) -> list[provenance.Source]:
    """One source per line; missing ones count as learned at ``updated_at``."""
    fallback = provenance.source(provenance.Kind.LEARNED, memory.updated_at)
    return provenance.aligned(memory.lines, memory.sources, fallback)


# --- Reading for a chat request ---------------------------------------------------------------


@dataclass(frozen=True)
class MemoryRead:
    """What a chat request learns from memory: on or off, and the block with its tokens."""

    enabled: bool
    block: str | None
    tokens: int = 0
    memory_id: int | None = None
    owner_id: int | None = None
    # The read timed out or failed: no block, on/off unknown.
    failed: bool = False


@functools.cache
def _block_extra_tokens() -> int:
    """Tokens the block's header and footer add, plus one for the joins."""
    probe = ["x"]
    return budget.count_tokens(prompts.memory_block(probe) or "") - budget.list_tokens(probe) + 1


# Lines only when memory is on: with it off, none leave the database.
_MEMORY_ROW = (
    "SELECT id, enabled, tokens, CASE WHEN enabled THEN lines END, rules_version"
    " FROM memory_memory WHERE owner_id = %s"
)


def _read_row(owner_id: int) -> tuple[int, bool, int, list[str] | None, int] | None:
    """The owner's memory row, in one read bounded by a statement timeout.

    Outside a transaction, ``SET LOCAL`` and the SELECT go together as one implicit
    transaction. Inside one, a savepoint keeps a timeout from failing the caller's."""
    sql = _MEMORY_ROW
    timeout = int(settings.MEMORY_READ_TIMEOUT_MS)
    with connection.cursor() as cursor:
        if connection.vendor != "postgresql":
            # SQLite: autocommit never waits under WAL; atomic would take the write lock.
            cursor.execute(sql, [owner_id])
        elif connection.in_atomic_block:
            with transaction.atomic():
                cursor.execute("SET LOCAL statement_timeout = %s", [timeout])
                cursor.execute(sql, [owner_id])
        else:
            # psycopg binds client-side here, so two statements can go at once.
            cursor.execute(f"SET LOCAL statement_timeout = %s; {sql}", [timeout, owner_id])
            cursor.nextset()
        row = cursor.fetchone()
    if row is None:
        return None
    lines = row[3]
    if isinstance(lines, str):  # SQLite hands JSON back as text
        lines = json.loads(lines)
    return row[0], bool(row[1]), row[2], lines, row[4]


def read_for_request(*, owner_id: int) -> MemoryRead:
    """The memory for one chat or voice request (SPEC §6).

    Bounded and fail-open: a slow or failing read gives no block, never a late or failed reply.
    """
    try:
        row = _read_row(owner_id)
    except DatabaseError:
        log.warning("memory.read_failed owner=%s", owner_id)
        return MemoryRead(enabled=True, block=None, owner_id=owner_id, failed=True)
    if row is None:
        return MemoryRead(enabled=True, block=None, owner_id=owner_id)
    memory_id, enabled, tokens, lines, rules_version = row
    if not enabled:
        return MemoryRead(enabled=False, block=None, memory_id=memory_id, owner_id=owner_id)
    lines = list(lines or [])
    if rules_version != RULES_VERSION:
        # Not checked under today's rules yet (the next pass or look removes what fails): a
        # line they refuse never reaches a model meanwhile.
        checked = [line for line in lines if refusal_reason(line) is None]
        if len(checked) < len(lines):
            lines = checked
            tokens = budget.list_tokens(lines)
    block = prompts.memory_block(lines)
    return MemoryRead(
        enabled=True,
        block=block,
        tokens=tokens + _block_extra_tokens() if block else 0,
        memory_id=memory_id,
        owner_id=owner_id,
    )


# --- The person's controls --------------------------------------------------------------------


_ID: BigIntegerField[int, int] = BigIntegerField()


@retry_on_lock_conflict
def clear_memory(*, owner_id: int) -> None:
    """Delete every line for good: no earlier turn is read again, history keeps only the empty list.

    OwnerGone (404) if the owner was deleted or merged meanwhile. The owner is locked before
    the memory row, as a guest merge does, so a clear racing a signup happens wholly before
    the merge or finds the guest gone.
    """
    now = timezone.now()
    memory = get_memory(owner_id=owner_id)
    with transaction.atomic():
        if not owners.directory().hold(owner_id):
            raise OwnerGone
        # Read under the lock: bury exactly what is cleared.
        locked = Memory.objects.select_for_update().filter(pk=memory.pk)
        before = locked.values_list("lines", flat=True).first()
        if before is None:
            raise OwnerGone
        # Unconditional: a clear wins. The version bump fails a running pass's CAS, and its
        # retry finds no unread turns. Guests waiting to merge in lose their lines too.
        Memory.objects.filter(pk=memory.pk).update(
            lines=[],
            sources=[],
            tokens=0,
            version=F("version") + 1,
            updated_at=now,
            context_from_id=Coalesce(
                Greatest(
                    F("context_from_id"), turns.store().newest_turn_id(owner_id), output_field=_ID
                ),
                F("context_from_id"),
                output_field=_ID,
            ),
        )
        # The row is ours until commit.
        version = Memory.objects.filter(pk=memory.pk).values_list("version", flat=True).get()
        history.start_over(memory_id=memory.pk, version=version, cleared=len(before))
        scheduling.cancel(memory.pk)
        tombstones.bury(memory_id=memory.pk, lines=before)
        turns.store().skip_unread_of(owner_id)
        # A turn said meanwhile commits after the clear; pending turns are read only when
        # said after ``switched_at``, so move it to the clear's end.
        Memory.objects.filter(pk=memory.pk).update(switched_at=timezone.now())
        turns.store().close_voice_sessions_of(owner_id)
        owners.directory().memory_cleared(owner_id)
        erasures.record(erasures.CLEAR, owner=tombstones.owner_key(memory.pk))
        record_event(
            owner_id=owner_id,
            kind=MemoryEvent.Kind.CLEAR,
            outcome=Outcome.OK,
            before=before,
            after=[],
        )


def delete_line(*, owner_id: int, index: int, expected_version: int | None) -> MemoryView:
    """Delete one line at the version the person saw (``None``: any version)."""

    def without(lines: list[str]) -> Change:
        return [line for i, line in enumerate(lines) if i != index], [lines[index]], None, []

    return _change_by_hand(
        owner_id=owner_id,
        expected=expected_version,
        index=index,
        kind=MemoryEvent.Kind.DELETE_LINE,
        change=without,
    )


def add_line(*, owner_id: int, text: str, expected_version: int | None = None) -> MemoryView:
    """Add the person's line at the end, checked by the model's rules (SPEC §3)."""
    return _write_own_line(owner_id=owner_id, index=None, text=text, expected=expected_version)


def edit_line(*, owner_id: int, index: int, text: str, expected_version: int | None) -> MemoryView:
    """Replace one line at the version the person saw (``None``: any); checked like an add."""
    return _write_own_line(owner_id=owner_id, index=index, text=text, expected=expected_version)


def _write_own_line(
    *, owner_id: int, index: int | None, text: str, expected: int | None
) -> MemoryView:
    line = clean_line(text)
    reason = refusal_reason(line)
    if reason is not None:
        raise LineRefused(reason)

    def with_line(lines: list[str]) -> Change:
        others = [old for i, old in enumerate(lines) if i != index]
        if line_key(line) in {line_key(old) for old in others}:
            raise LineRefused("duplicate")
        after = [*lines, line] if index is None else [*lines[:index], line, *lines[index + 1 :]]
        tokens = budget.list_tokens(after)
        if tokens > settings.MEMORY_TOKEN_LIMIT:
            raise MemoryFull
        if index is None:
            return after, [], tokens, []
        return after, [lines[index]], tokens, [(lines[index], line)]

    kind = MemoryEvent.Kind.ADD_LINE if index is None else MemoryEvent.Kind.EDIT_LINE
    return _change_by_hand(
        owner_id=owner_id, expected=expected, index=index, kind=kind, change=with_line
    )


# A hand change: lines after, lines removed, their tokens if counted, rewrites (from → to).
Change = tuple[list[str], list[str], int | None, list[tuple[str, str]]]


def _change_by_hand(
    *,
    owner_id: int,
    expected: int | None,
    index: int | None,
    kind: str,
    change: Callable[[list[str]], Change],
) -> MemoryView:
    """One hand change (delete, add, edit) as a CAS at the version the person saw.

    With ``None``, a concurrent pass makes it retry, a bounded number of times. A missing
    ``index`` is LineNotFound at any version (RFC 9110 §13.2.1). Removed lines also leave
    pending guest merges in the same transaction, so a merge cannot bring them back."""
    for _ in range(settings.MEMORY_CAS_ATTEMPTS):
        memory = get_memory(owner_id=owner_id)
        if index is not None and not 0 <= index < len(memory.lines):
            raise LineNotFound
        if expected is not None and memory.version != expected:
            raise StaleVersion
        after, removed, tokens, pairs = change(memory.lines)
        with transaction.atomic():
            if write_lines(memory=memory, lines=after, tokens=tokens, kind=kind, pairs=pairs):
                gone = removed
                if kind == MemoryEvent.Kind.DELETE_LINE:
                    # Forgetting is final: the line and its earlier wordings leave every
                    # version, and a tombstone blocks passes, restores and merges.
                    gone = history.with_earlier_wordings(memory_id=memory.pk, lines=removed)
                    history.forget(memory_id=memory.pk, removed=gone, kept=after)
                    tombstones.bury(memory_id=memory.pk, lines=gone, unless_in=after)
                _forget_in_pending_merges(owner_id, removed=gone, kind=kind)
                break
        if expected is not None:
            raise StaleVersion
    else:
        raise StaleVersion
    record_event(owner_id=owner_id, kind=kind, outcome=Outcome.OK, before=memory.lines, after=after)
    return view_memory(owner_id=owner_id)


def unbury_digests(*, owner_id: int, digests: Iterable[str]) -> None:
    """A restored backup meets a forget lifted after it: the tombstones go again."""
    memory_id = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    if memory_id is not None:
        tombstones.lift_digests(memory_id=memory_id, digests=digests)


def erase_digests(*, owner_id: int, digests: Iterable[str]) -> None:
    """A restored backup meets an erasure made after it: the lines with these tombstone
    digests leave the list and every version, and stay buried."""
    wanted = set(digests)
    with transaction.atomic():
        memory = Memory.objects.select_for_update().filter(owner_id=owner_id).first()
        if memory is None:  # the memory came after the backup: nothing of it is back
            return
        memory_id = memory.pk
        versions = history.lines_of_every_version(memory_id=memory_id)
        named = [line for line in [*memory.lines, *versions] if tombstones.is_buried(line, wanted)]
        # Their earlier wordings too, as the deletion did (the backup may hold more of them).
        removed = sorted(set(history.with_earlier_wordings(memory_id=memory_id, lines=named)))
        wanted |= {tombstones.digest(line) for line in removed}
        kept = [line for line in memory.lines if line not in removed]
        if kept != memory.lines:
            write_lines(memory=memory, lines=kept, kind=MemoryEvent.Kind.DELETE_LINE)
        history.forget(memory_id=memory_id, removed=removed, kept=kept)
        tombstones.bury_digests(memory_id=memory_id, digests=wanted)


def _forget_in_pending_merges(owner_id: int, *, removed: list[str], kind: str) -> None:
    """Drop removed lines from guests still merging into this owner (over the cap).

    Same transaction as the owner's write, so a merge in flight loses its CAS and redoes."""
    if not removed:
        return
    keys = {line_key(line) for line in removed}
    guests = owners.directory().guests_merging_into(owner_id)
    pending = Memory.objects.filter(owner_id__in=guests) if guests else []
    for guest_memory in pending:
        kept = [line for line in guest_memory.lines if line_key(line) not in keys]
        if kept != guest_memory.lines:
            write_lines(memory=guest_memory, lines=kept, kind=kind)
        history.forget(memory_id=guest_memory.pk, removed=removed, kept=kept)


def is_enabled(owner_id: int) -> bool:
    """Whether the person's memory is on (a memory not made yet is)."""
    found = Memory.objects.filter(owner_id=owner_id).values_list("enabled", flat=True).first()
    return found is not False


def set_enabled(*, owner_id: int, enabled: bool) -> MemoryView:
    """The on/off switch. Off: no reads, no passes; lines stay until cleared.

    Turns said while off are stored as never read, so switching on reads none of them."""
    memory = get_memory(owner_id=owner_id)
    if memory.enabled != enabled:
        with transaction.atomic():
            now = timezone.now()
            switched = Memory.objects.filter(
                pk=memory.pk, enabled=memory.enabled, switched_at=memory.switched_at
            ).update(enabled=enabled, version=F("version") + 1, updated_at=now, switched_at=now)
            if not switched:
                return view_memory(owner_id=owner_id)  # switched meanwhile
            # Settle turns pending from an unreadable time as memory was then, under the lock.
            turns.store().settle_pending(owner_id, enabled=memory.enabled, since=memory.switched_at)
            scheduling.cancel(memory.pk)
            if enabled and has_unread_work(owner_id):
                request_pass(owner_id=owner_id)
            record_event(
                owner_id=owner_id,
                kind=MemoryEvent.Kind.SWITCH,
                outcome=Outcome.ON if enabled else Outcome.OFF,
                before=memory.lines,
                after=memory.lines,
            )
    return view_memory(owner_id=owner_id)


def has_unread_work(owner_id: int) -> bool:
    """Turns or ended voice sessions of the owner that no pass has read yet."""
    return turns.store().has_unread(owner_id)
