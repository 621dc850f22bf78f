"""Stored lines checked again when the gate's rules change (issue 26).

A line stored under older rules may be one today's rules refuse (a password shape the gate
learned since). The next pass, or the next time the person looks at their memory, checks the
list again: a refused line leaves the list and every version, and the change is recorded as
its own version whose receipt counts only why ("1 fact that looked like a password…").

When most of a list fails at once the rules are suspect, not the lines: nothing is removed,
the list stays unchecked (so no chat carries a failing line, ``services.read_for_request``)
and passes wait (``Outcome.HELD``) until a release with mended rules checks it again.
"""

from __future__ import annotations

import logging
from enum import Enum

from django.db import DatabaseError, transaction

from memory import history, services
from memory.filters.gate import RULES_VERSION, screen
from memory.models import Memory, MemoryEvent, MemoryVersion, Outcome

log = logging.getLogger(__name__)


class Screened(Enum):
    CHECKED = "checked"  # the list is checked under today's rules (now or before)
    HELD = "held"  # most of it fails: nothing removed, nothing trusted
    LOST = "lost"  # someone wrote first: check again


def screen_stored(*, owner_id: int | None = None, memory_id: int | None = None) -> Screened:
    """Check stored lines under today's rules, once per rules version (by owner or memory)."""
    rows = Memory.objects.all()
    rows = rows.filter(pk=memory_id) if memory_id is not None else rows.filter(owner_id=owner_id)
    memory = rows.first()
    if memory is None or memory.rules_version == RULES_VERSION:
        return Screened.CHECKED
    result = screen(memory.lines)
    if result.held:
        log.warning("memory.screen_held memory=%s", memory.pk)
        _trace(memory, Outcome.HELD, after=memory.lines, failing=result.failing)
        return Screened.HELD
    with transaction.atomic():
        if not result.removed:
            done = Memory.objects.filter(pk=memory.pk, version=memory.version).update(
                rules_version=RULES_VERSION
            )
            return Screened.CHECKED if done else Screened.LOST
        if not services.write_lines(
            memory=memory,
            lines=result.kept,
            kind=MemoryVersion.Kind.SCREEN,
            rules_version=RULES_VERSION,
        ):
            return Screened.LOST
        removed = [line for line, _ in result.removed]
        history.forget(memory_id=memory.pk, removed=removed, kept=result.kept)
        history.mark_screened(
            memory_id=memory.pk,
            version=memory.version + 1,
            reasons=[reason for _, reason in result.removed],
        )
        _trace(memory, Outcome.OK, after=result.kept, failing=len(removed))
    return Screened.CHECKED


def _trace(memory: Memory, outcome: Outcome, *, after: list[str], failing: int) -> None:
    services.record_event(
        owner_id=memory.owner_id,
        kind=MemoryEvent.Kind.SCREEN,
        outcome=outcome,
        before=memory.lines,
        after=after,
        refused_lines=failing,
    )


def screen_before_showing(*, owner_id: int) -> None:
    """The check a page or API read runs first; its failure never fails the read (the next
    look or pass checks again)."""
    try:
        with transaction.atomic():  # a savepoint: the read goes on after a failure
            screen_stored(owner_id=owner_id)
    except DatabaseError:
        log.warning("memory.screen_failed owner=%s", owner_id)
