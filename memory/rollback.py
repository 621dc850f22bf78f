"""Going back in a memory's history: restore a version's list, or undo the change that made one.

Both write through ``services.write_lines`` (CAS at the version the person saw). What comes
back is checked like a hand-written line: refused, duplicate or over-cap lines are skipped and
counted. A deleted line cannot return: it left every version. The trace gets counts only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext_lazy as _

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
    """The version changed no line that can come back (HTTP 409)."""

    code = "nothing_to_undo"
    detail = _("That version changed nothing that can be undone.")


@dataclass(frozen=True)
class RolledBack:
    memory: MemoryView
    # Lines that no longer pass the rules or the cap.
    skipped: int


def screened(lines: Sequence[str]) -> tuple[list[str], int]:
    """``lines`` checked like a hand-written line, in order while under the cap; and skips."""
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


@dataclass(frozen=True)
class Target:
    """A rollback's plan from the list now and the version asked."""

    lines: list[str]
    pairs: list[tuple[str, str]]
    back_from: MemoryVersion | None  # where returning lines take their sources
    # Lines a forget buried that this rollback brings back on purpose (the Undo of that very
    # forget): the only ones past their tombstones.
    unforgotten: frozenset[str] = frozenset()


def _roll_back(
    *,
    owner_id: int,
    version: int,
    expected: int | None,
    kind: str,
    target: Callable[[Memory, MemoryVersion], Target],
) -> RolledBack:
    for _attempt in range(settings.MEMORY_CAS_ATTEMPTS):
        memory = get_memory(owner_id=owner_id)
        # A missing version is a 404 whatever the version expected (RFC 9110 §13.2.1).
        row = history.version_of(memory_id=memory.pk, version=version)
        if row is None:
            raise VersionNotFound
        if expected is not None and memory.version != expected:
            raise StaleVersion
        plan = target(memory, row)
        lines, pairs, back_from, undone = plan.lines, plan.pairs, plan.back_from, plan.unforgotten
        # What the person made memory forget never comes back (a line still listed is no
        # comeback), except by the Undo of that very forget.
        forgotten = tombstones.buried(memory.pk)
        allowed = [
            line
            for line in lines
            if line in memory.lines or line in undone or not tombstones.is_buried(line, forgotten)
        ]
        after, skipped = screened(allowed)
        skipped += len(lines) - len(allowed)
        if after == memory.lines:
            return RolledBack(view_memory(owner_id=owner_id), skipped)  # nothing to write
        with transaction.atomic():
            origin = _bringing_back(back_from, fallback=row, held=row if undone else None)
            if write_lines(memory=memory, lines=after, kind=kind, pairs=pairs, origin=origin):
                tombstones.unbury(memory_id=memory.pk, lines=[x for x in after if x in undone])
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


def _bringing_back(
    version: MemoryVersion | None, *, fallback: MemoryVersion, held: MemoryVersion | None = None
) -> provenance.Origin:
    """A returning line takes its source in ``version`` (or, undoing a forget, the source
    ``held`` kept of it), else learned at ``fallback``'s time."""
    known = history.sources_by_line(version) if version is not None else {}
    if held is not None:
        known = {**known, **history.held_sources(held)}
    old = provenance.source(provenance.Kind.LEARNED, fallback.created_at)
    return provenance.Origin(new=lambda _line: old, known=known)


def restore_version(*, owner_id: int, version: int, expected_version: int | None) -> RolledBack:
    """A new version with ``version``'s lines, at the version the person saw (``None``: any)."""
    return _roll_back(
        owner_id=owner_id,
        version=version,
        expected=expected_version,
        kind=MemoryEvent.Kind.RESTORE,
        target=lambda memory, row: Target(list(row.lines), [], row),
    )


def undo_version(*, owner_id: int, version: int, expected_version: int | None) -> RolledBack:
    """Revert the change that made ``version``, only while it is newest (else StaleVersion)."""

    def whole(memory: Memory, row: MemoryVersion) -> changes.ChangeRecord:
        if history.newest_version(memory_id=memory.pk) != row.version:
            raise StaleVersion
        record = history.change_of(row)
        if record.empty:
            raise NothingToUndo
        return record

    return _undo(
        owner_id=owner_id,
        version=version,
        expected=expected_version,
        pick=whole,
        kind=MemoryEvent.Kind.UNDO,
    )


def undo_line(*, owner_id: int, version: int, item: int) -> RolledBack:
    """Revert one line of the change that made ``version`` (``changes.one``), on the list as it
    is now, while that line's change still stands there (else NothingToUndo), and only while
    the change's record is as it was made (``history.intact``): a later delete rewrites it, and
    an older wording of a deleted fact must not come back. A forget's line only while its
    version is newest."""

    def one_line(memory: Memory, row: MemoryVersion) -> changes.ChangeRecord:
        if not history.intact(row):
            raise StaleVersion
        single = changes.one(history.change_of(row), item)
        if single is None or not changes.holds(memory.lines, single):
            raise NothingToUndo
        if single.forgotten and history.newest_version(memory_id=memory.pk) != row.version:
            raise StaleVersion
        return single

    return _undo(
        owner_id=owner_id,
        version=version,
        expected=None,
        pick=one_line,
        kind=MemoryEvent.Kind.UNDO_LINE,
    )


def _undo(
    *,
    owner_id: int,
    version: int,
    expected: int | None,
    pick: Callable[[Memory, MemoryVersion], changes.ChangeRecord],
    kind: str,
) -> RolledBack:
    """Revert what ``pick`` takes of the change that made ``version``."""

    def reverted(memory: Memory, row: MemoryVersion) -> Target:
        record = pick(memory, row)
        # What comes back was in the previous version (if still kept).
        before = history.version_before(memory_id=memory.pk, version=row.version)
        return Target(
            changes.revert(memory.lines, record),
            changes.inverse_pairs(record),
            before,
            frozenset(record.forgotten),
        )

    return _roll_back(
        owner_id=owner_id, version=version, expected=expected, kind=kind, target=reverted
    )


def history_of(*, owner_id: int, limit: int, lines: bool = False) -> list[MemoryVersion]:
    """The person's versions, newest first (creates no row); with their lines if asked."""
    memory_id = Memory.objects.filter(owner_id=owner_id).values_list("pk", flat=True).first()
    if memory_id is None:
        return []
    return history.versions_of(memory_id=memory_id, limit=limit, lines=lines)


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
    """Take back what a pass learned from a turn the person withdrew; True if some stays.

    ``version_id``: the version that pass made; ``others``: the other turns it read. Alone,
    the whole change goes; with others, only lines the withdrawn turn best supports
    (``provenance.supporting``). Reverted on the list as it is now, like an undo: the version
    must be this memory's, and a forgotten line never comes back. True also when it cannot be
    done: pruned, merged since, or the list kept changing."""
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
        return Target(changes.revert(current.lines, record), changes.inverse_pairs(record), before)

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
    # Withdrawn lines also leave the history, so no restore brings them back (not buried:
    # the person may say them again).
    taught = [*record.added, *(new for _, new in record.changed)]
    with transaction.atomic():
        history.forget(
            memory_id=memory.pk, removed=taught, kept=get_memory(owner_id=owner_id).lines
        )
    return False
