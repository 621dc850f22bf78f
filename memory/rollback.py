"""Going back in a memory's history: restore a version's list, or undo the change that made one.

Both write a new version through ``services.write_lines`` (compare-and-set at the version the
person saw), and what they bring back faces the rules of a line the person writes by hand: a
line the filters now refuse, a duplicate, or one past the token cap is skipped and counted, never
stored. A line the person deleted cannot come back: it left every version when it was deleted.
The trace gets counts only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction

from core.errors import Conflict, NotFound
from memory import history, tombstones
from memory.filters.gate import refusal_reason
from memory.models import Memory, MemoryEvent, MemoryVersion, Outcome
from memory.rules import budget, changes, provenance
from memory.rules.lines import clean_line, line_key
from memory.services import (
    MemoryView,
    StaleVersion,
    get_memory,
    record_event,
    view_memory,
    write_lines,
)


class VersionNotFound(NotFound):
    """No such version of the person's list: never one, pruned, or cleared (HTTP 404)."""

    detail = "No such version of your memory."


class NothingToUndo(Conflict):
    """The version changed no line the person can get back (HTTP 409): the list as history
    began, a clear, or a change whose lines were all forgotten since."""

    code = "nothing_to_undo"
    detail = "That version changed nothing that can be undone."


@dataclass(frozen=True)
class RolledBack:
    memory: MemoryView
    # Lines of the version that no longer pass the rules or the cap.
    skipped: int


def screened(lines: Sequence[str]) -> tuple[list[str], int]:
    """``lines`` as a hand-written line is checked (cleaned, refused, deduplicated), in order
    while they fit under the cap; and how many were skipped."""
    kept: list[str] = []
    keys: set[str] = set()
    for text in lines:
        line = clean_line(text)
        if refusal_reason(line) is not None or line_key(line) in keys:
            continue
        if budget.list_tokens([*kept, line]) > settings.MEMORY_TOKEN_LIMIT:
            continue
        kept.append(line)
        keys.add(line_key(line))
    return kept, len(lines) - len(kept)


# What a rollback writes, given the list now and the version asked for: lines, known pairs, and
# the version whose sources the lines it brings back take.
Target = tuple[list[str], list[tuple[str, str]], MemoryVersion | None]


def _roll_back(
    *,
    owner_id: int,
    version: int,
    expected: int | None,
    kind: str,
    target: Callable[[Memory, MemoryVersion], Target],
) -> RolledBack:
    for _ in range(settings.MEMORY_CAS_ATTEMPTS):
        memory = get_memory(owner_id=owner_id)
        # A version that is not there is a 404 whatever the version expected (RFC 9110 §13.2.1).
        row = history.version_of(memory_id=memory.pk, version=version)
        if row is None:
            raise VersionNotFound
        if expected is not None and memory.version != expected:
            raise StaleVersion
        lines, pairs, back_from = target(memory, row)
        # What the person made memory forget never comes back this way either (a line still on
        # the list is not a comeback).
        forgotten = tombstones.buried(memory.pk)
        allowed = [
            line
            for line in lines
            if line in memory.lines or not tombstones.is_buried(line, forgotten)
        ]
        after, skipped = screened(allowed)
        skipped += len(lines) - len(allowed)
        if after == memory.lines:
            return RolledBack(view_memory(owner_id=owner_id), skipped)  # nothing to write
        with transaction.atomic():
            origin = _bringing_back(back_from, fallback=row)
            if write_lines(memory=memory, lines=after, kind=kind, pairs=pairs, origin=origin):
                record_event(
                    owner_id=owner_id,
                    kind=kind,
                    outcome=Outcome.OK,
                    before=memory.lines,
                    after=after,
                    refused_lines=skipped,
                )
                return RolledBack(view_memory(owner_id=owner_id), skipped)
        if expected is not None:
            raise StaleVersion
    raise StaleVersion


def _bringing_back(version: MemoryVersion | None, *, fallback: MemoryVersion) -> provenance.Origin:
    """A line brought back takes the source it had in ``version``; one it never had (a version
    pruned, or stored before sources were kept) reads as learned when ``fallback`` was made."""
    known = history.sources_by_line(version) if version is not None else {}
    old = provenance.source(provenance.Kind.LEARNED, fallback.created_at)
    return provenance.Origin(new=lambda _line: old, known=known)


def restore_version(*, owner_id: int, version: int, expected_version: int | None) -> RolledBack:
    """A new version whose lines are those of ``version``, at the version the person saw
    (``None``: any)."""
    return _roll_back(
        owner_id=owner_id,
        version=version,
        expected=expected_version,
        kind=MemoryEvent.Kind.RESTORE,
        target=lambda memory, row: (list(row.lines), [], row),
    )


def undo_version(*, owner_id: int, version: int, expected_version: int | None) -> RolledBack:
    """Revert the change that made ``version`` — only while it is still the newest version of
    the list (StaleVersion otherwise: a later change would be undone blindly)."""

    def reverted(memory: Memory, row: MemoryVersion) -> Target:
        if history.newest_version(memory_id=memory.pk) != row.version:
            raise StaleVersion
        record = history.change_of(row)
        if record.empty:
            raise NothingToUndo
        # What comes back was in the version before this one (if it is still kept).
        before = history.version_before(memory_id=memory.pk, version=row.version)
        return changes.revert(memory.lines, record), changes.inverse_pairs(record), before

    return _roll_back(
        owner_id=owner_id,
        version=version,
        expected=expected_version,
        kind=MemoryEvent.Kind.UNDO,
        target=reverted,
    )


def history_of(*, owner_id: int, limit: int) -> list[MemoryVersion]:
    """The person's versions, newest first (no row is created for someone without one)."""
    memory_id = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    return [] if memory_id is None else history.versions_of(memory_id=memory_id, limit=limit)


def version_for(*, owner_id: int, version: int) -> MemoryVersion:
    """One version of the person's list, or VersionNotFound (also anyone else's)."""
    memory_id = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    row = None if memory_id is None else history.version_of(memory_id=memory_id, version=version)
    if row is None:
        raise VersionNotFound
    return row


def take_back(
    *,
    owner_id: int,
    turn_id: int,
    version_id: int | None,
    said: provenance.Said,
    others: Sequence[provenance.Said],
) -> bool:
    """Take back what a pass learned from a turn the person withdrew (edited away), and say
    whether some of it stays.

    ``version_id`` is the version that pass made (the turn's receipt); ``others`` are the other
    turns that pass read, oldest first (the withdrawn one was the newest of its conversation).
    Read alone, the whole change goes; read with others, only the lines the withdrawn turn best
    supports (``provenance.supporting``, as a line's source is found), so what the other turns
    taught stays. The change is reverted on the list as it is now (a line deleted since stays
    gone; a line written over since stays as it is) through ``_roll_back``, as an undo: the
    version must be this memory's (a guest's merged since is not), and a forgotten line never
    comes back. True when it could not be done: the version is no longer kept (pruned), or
    belongs to a memory merged since, or the list kept changing under it."""
    memory = get_memory(owner_id=owner_id)
    if memory.context_from_id >= turn_id:
        return False  # cleared since: nothing of it is left to take back
    row = (
        MemoryVersion.objects.filter(pk=version_id, memory_id=memory.pk).first()
        if version_id is not None
        else None
    )
    if row is None:
        return True
    turns = [*others, said]
    mine = len(turns) - 1

    def from_withdrawn(line: str) -> bool:
        return not others or provenance.supporting(line, turns) == mine

    record = history.change_of(row)
    record = changes.ChangeRecord(
        added=[line for line in record.added if from_withdrawn(line)],
        changed=[(old, new) for old, new in record.changed if from_withdrawn(new)],
        removed=[line for line in record.removed if from_withdrawn(line)],
    )
    if record.empty:
        return False

    def reverted(current: Memory, version: MemoryVersion) -> Target:
        before = history.version_before(memory_id=current.pk, version=version.version)
        return changes.revert(current.lines, record), changes.inverse_pairs(record), before

    try:
        _roll_back(
            owner_id=owner_id,
            version=row.version,
            expected=None,
            kind=MemoryEvent.Kind.UNDO,
            target=reverted,
        )
    except (StaleVersion, VersionNotFound):
        return True
    # Nor is it kept where a restore would bring it back: the withdrawn lines leave the history
    # (not buried: the person may well say them again).
    taught = [*record.added, *(new for _, new in record.changed)]
    with transaction.atomic():
        history.forget(
            memory_id=memory.pk, removed=taught, kept=get_memory(owner_id=owner_id).lines
        )
    return False
