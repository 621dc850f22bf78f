"""Owners coming and going: a guest's memory merged into an account, the guest's turn
promises kept by the account, and the trace of a deleted owner.
"""

from __future__ import annotations

import logging
from enum import StrEnum

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from memory import scheduling, tombstones, turns
from memory.engine.rewriting import fit_under_cap
from memory.filters.gate import RULES_VERSION, validate_lines
from memory.models import Memory, MemoryEvent, Outcome
from memory.queueing import request_pass
from memory.rules import budget, provenance
from memory.services import (
    get_memory,
    has_unread_work,
    record_event,
    sources_of,
    write_lines,
)

log = logging.getLogger(__name__)


class MergeOutcome(StrEnum):
    MERGED = "merged"  # done (or nothing to merge)
    NEEDS_CONDENSE = "needs_condense"  # over the cap: the condense pass must run (model call)
    CONFLICT = "conflict"  # lost the compare-and-set every time: try again later


def merge_memories(
    *, from_owner_id: int, into_owner_id: int, allow_model: bool = True
) -> MergeOutcome:
    """Merge a guest's lines into an account's without duplicates (account's first), under the
    cap via a pass's condense/cut path; then empty the guest's list. Safe with passes in flight
    on either side (bounded CAS). With ``allow_model=False`` (a signup must not wait on a
    model), a merge needing a condense changes nothing; a task finishes it.
    """
    for _ in range(settings.MEMORY_CAS_ATTEMPTS):
        source = Memory.objects.filter(owner_id=from_owner_id).first()
        if source is None or not source.lines:
            if source is not None:  # nothing to bring, but what the guest forgot still counts
                tombstones.move(
                    from_memory_id=source.pk, into_memory_id=get_memory(owner_id=into_owner_id).pk
                )
            return MergeOutcome.MERGED
        target = get_memory(owner_id=into_owner_id)
        # A pass's code rules: cleaned, deduplicated (account first), refusals and
        # tombstoned lines of either side dropped.
        forgotten = tombstones.buried(target.pk) | tombstones.buried(source.pk)
        incoming = [line for line in source.lines if not tombstones.is_buried(line, forgotten)]
        merged = validate_lines([*target.lines, *incoming]).lines
        if budget.list_tokens(merged) > settings.MEMORY_TOKEN_LIMIT:
            if not allow_model:
                return MergeOutcome.NEEDS_CONDENSE
            # The model call runs outside any transaction.
            pinned = {**_sources(target), **_guest_sources(source)}
            merged, _, _, _ = fit_under_cap(owner_id=into_owner_id, lines=merged, sources=pinned)
        with transaction.atomic():
            if not write_lines(
                memory=target,
                lines=merged,
                rules_version=RULES_VERSION,
                kind=MemoryEvent.Kind.MERGE,
                origin=_from_guest(source),
            ):
                continue
            if not write_lines(memory=source, lines=[], kind=MemoryEvent.Kind.MERGE):
                transaction.set_rollback(True)
                continue
            tombstones.move(from_memory_id=source.pk, into_memory_id=target.pk)
        record_event(
            owner_id=into_owner_id,
            kind=MemoryEvent.Kind.MERGE,
            outcome=Outcome.OK,
            before=target.lines,
            after=merged,
        )
        return MergeOutcome.MERGED
    log.warning("memory.merge_conflict into=%s", into_owner_id)
    return MergeOutcome.CONFLICT


def _sources(memory: Memory) -> dict[str, provenance.Source]:
    return dict(zip(memory.lines, sources_of(memory), strict=True))


def _guest_sources(guest: Memory) -> dict[str, provenance.Source]:
    known = {}
    for line, src in zip(guest.lines, sources_of(guest), strict=True):
        arrived = provenance.Source(**{**src, "kind": provenance.Kind.MERGED})
        if provenance.is_pinned(src):
            arrived["pinned"] = True
        known[line] = arrived
    return known


def _from_guest(guest: Memory) -> provenance.Origin:
    """A guest's line arrives as ``merged``, still naming its conversation and time, and
    pinned if the guest pinned it."""
    now = timezone.now()
    known = _guest_sources(guest)
    merged = provenance.source(provenance.Kind.MERGED, now)
    return provenance.Origin(new=lambda _line: merged, known=known)


def hand_over_turns(*, from_owner_id: int, into_owner_id: int) -> None:
    """Settle the guest's turn promises before its conversations move (caller holds them):
    cleared turns stay out of reach; turns said with memory off or in temporary chats are never
    read; read turns stay read; unread turns stay unread for the account. A pass running on the
    guest loses its CAS.
    """
    source = Memory.objects.filter(owner_id=from_owner_id).first()
    # Pending guest turns are settled as the guest's memory was, before they move.
    turns.store().settle_pending(
        from_owner_id,
        enabled=source is None or source.enabled,
        since=None if source is None else source.switched_at,
    )
    if source is not None:  # no row: the guest never cleared nor switched memory off
        Memory.objects.filter(pk=source.pk).update(version=F("version") + 1)
        scheduling.cancel(source.pk)
        turns.store().skip_through(from_owner_id, source.context_from_id)
    if has_unread_work(from_owner_id):
        request_pass(owner_id=into_owner_id)


def forget_owner(*, owner_id: int) -> None:
    """The owner is being deleted: trace it (counts only); the row goes with the owner."""
    memory = Memory.objects.filter(owner_id=owner_id).first()
    before = list(memory.lines) if memory else []
    record_event(
        owner_id=owner_id,
        kind=MemoryEvent.Kind.ACCOUNT_DELETED,
        outcome=Outcome.OK,
        before=before,
        after=[],
    )
