"""The stored versions of a memory's list: written with each change, pruned with age, purged
of what the person forgets.

Written with the list's own write (``recorded``, in its batch), so a version exists exactly
when its list does. Kept: the newest ``MEMORY_HISTORY_KEEP_VERSIONS`` or younger than
``MEMORY_HISTORY_KEEP_DAYS``; the rest go after every tenth write, in one indexed DELETE.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from typing import Final

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Subquery
from django.utils import timezone

from core import batch
from memory.models import MemoryVersion
from memory.rules import changes, provenance
from memory.rules.lines import forget_key
from memory.rules.provenance import Source
from memory.versions import MAX_VERSION

log = logging.getLogger(__name__)

# Old versions are pruned on every tenth write, not on each: a pass saves a round trip.
PRUNE_EVERY: Final = 10

# How long Settings and the API show that the safety check removed saved lines.
SCREEN_NOTICE_DAYS: Final = 30


def change_of(version: MemoryVersion) -> changes.ChangeRecord:
    return changes.ChangeRecord(
        added=list(version.added),
        changed=[(old, new) for old, new in version.changed],
        removed=list(version.removed),
        forgotten=list(version.forgotten),
    )


CHANGE_KINDS: Final = ("added", "changed", "removed")


def counted(version: MemoryVersion) -> dict[str, int]:
    """How many lines ``version``'s change added, changed and removed when it was made."""
    if version.counts:
        return {kind: int(version.counts.get(kind, 0)) for kind in CHANGE_KINDS}
    return named(version)  # a version from before the numbers were kept


def named(version: MemoryVersion) -> dict[str, int]:
    """What ``version``'s change still names (a later forget scrubs lines from it)."""
    return {
        "added": len(version.added),
        "changed": len(version.changed),
        "removed": len(version.removed) + len(version.forgotten),
    }


def later_deleted(version: MemoryVersion) -> int:
    """How many lines of ``version``'s change the person deleted or had forgotten since:
    counted, no longer named. Not the lines the version itself took out for good (``own``:
    a delete's line, a forget's, a clear's)."""
    still = len(version.added) + len(version.changed) + len(version.removed)
    own = int(version.counts.get("own", 0))
    return max(0, sum(counted(version).values()) - still - own)


def intact(version: MemoryVersion) -> bool:
    """``version``'s change names every line it was made with, so each can be undone alone."""
    return bool(version.counts) and counted(version) == named(version)


def _store_change(version: MemoryVersion, record: changes.ChangeRecord) -> None:
    version.added = list(record.added)
    version.changed = [[old, new] for old, new in record.changed]
    version.removed = list(record.removed)
    version.forgotten = list(record.forgotten)


def recorded(
    *,
    memory_id: int,
    version: int,
    before: Sequence[str],
    after: Sequence[str],
    kind: str,
    pairs: Iterable[tuple[str, str]] = (),
    sources: Sequence[Source] = (),
    change: changes.ChangeRecord | None = None,
) -> list[batch.Write]:
    """The writes that store the version a write makes, with its sources and change, to go in
    the list's own batch (``prune_if_due`` after it)."""
    row = MemoryVersion(
        memory_id=memory_id, version=version, kind=kind, lines=list(after), sources=list(sources)
    )
    made = change or changes.diff(before, after, pairs=pairs)
    _store_change(row, made)
    row.counts = named(row)
    if kind == MemoryVersion.Kind.DELETE_LINE:
        row.counts["own"] = len(made.removed)  # scrubbed from this very record next
    return [
        batch.Insert(row),
        # A forget is undoable only while its version is the newest: now no more.
        batch.Update(
            MemoryVersion.objects.filter(memory_id=memory_id, version__lt=version).exclude(
                forgotten=[]
            ),
            {"forgotten": [], "forgotten_sources": []},
        ),
    ]


def prune_if_due(*, memory_id: int, version: int) -> None:
    """After the write that made ``version``: prune every tenth write, once there can be more
    versions than are kept (each number is stored at most once). A failure only leaves the
    pruning to a later write, never fails the write."""
    if version % PRUNE_EVERY or version <= settings.MEMORY_HISTORY_KEEP_VERSIONS:
        return
    try:
        with transaction.atomic():  # a savepoint inside the caller's transaction
            prune(memory_id=memory_id)
    except DatabaseError:
        log.warning("memory.prune_failed memory=%s", memory_id)


def prune(*, memory_id: int) -> None:
    """Drop versions both older than the retention days and outside the newest kept."""
    keep = settings.MEMORY_HISTORY_KEEP_VERSIONS
    oldest_kept = (
        MemoryVersion.objects.filter(memory_id=memory_id)
        .newest_first()
        .values("version")[keep - 1 : keep]
    )
    cutoff = timezone.now() - timedelta(days=settings.MEMORY_HISTORY_KEEP_DAYS)
    MemoryVersion.objects.filter(
        memory_id=memory_id, created_at__lt=cutoff, version__lt=Subquery(oldest_kept)
    ).delete()


def start_over(*, memory_id: int, version: int, cleared: int) -> None:
    """A clear: only the empty list remains, with how many lines went (none of them named)."""
    MemoryVersion.objects.filter(memory_id=memory_id).delete()
    MemoryVersion.objects.create(
        memory_id=memory_id,
        version=version,
        kind=MemoryVersion.Kind.CLEAR,
        lines=[],
        counts={"added": 0, "changed": 0, "removed": cleared, "own": cleared},
    )


def lines_of_every_version(*, memory_id: int) -> set[str]:
    """Every text the versions hold, lists and change records: what a replayed erasure, which
    knows only digests, looks among."""
    found: set[str] = set()
    for row in MemoryVersion.objects.filter(memory_id=memory_id):
        found.update(row.lines, row.added, row.removed, row.forgotten)
        found.update(text for pair in row.changed for text in pair)
    return found


def with_earlier_wordings(*, memory_id: int, lines: Sequence[str]) -> list[str]:
    """``lines`` and every wording they replaced, by hand or by a pass (the versions' from → to
    pairs, followed back): deleting a line forgets what it said before an edit too."""
    earlier: dict[str, set[str]] = {}
    for changed in MemoryVersion.objects.filter(memory_id=memory_id).values_list(
        "changed", flat=True
    ):
        for old, new in changed:
            earlier.setdefault(forget_key(new), set()).add(old)
    found = list(dict.fromkeys(lines))
    seen = {forget_key(line) for line in found}
    for line in found:  # grows while read: each wording's own earlier ones
        for old in sorted(earlier.get(forget_key(line), ())):
            if forget_key(old) not in seen:
                seen.add(forget_key(old))
                found.append(old)
    return found


def forget(*, memory_id: int, removed: Sequence[str], kept: Sequence[str]) -> None:
    """Take forgotten lines out of every stored version and change record, by normalised text,
    in the caller's transaction. A line still listed (``kept``, say re-cased) stays."""
    keys = {forget_key(line) for line in removed} - {forget_key(line) for line in kept}
    keys.discard("")
    if not keys:
        return

    def forgotten(line: str) -> bool:
        return forget_key(line) in keys

    touched = []
    for row in MemoryVersion.objects.filter(memory_id=memory_id):
        # A line and its aligned source leave together.
        remaining = [
            (line, src)
            for line, src in itertools.zip_longest(row.lines, row.sources[: len(row.lines)])
            if not forgotten(line)
        ]
        lines = [line for line, _ in remaining]
        old = change_of(row)
        new = changes.without(old, forgotten)
        if lines != row.lines or new != old:
            row.lines = lines
            row.sources = [src for _, src in remaining if src is not None]
            _store_change(row, new)
            touched.append(row)
    MemoryVersion.objects.bulk_update(
        touched, ["lines", "sources", "added", "changed", "removed", "forgotten"]
    )


def hold_forgotten(
    *, memory_id: int, version: int, lines: Sequence[str], sources: Sequence[Source]
) -> None:
    """Name what ``version`` forgot in its own change, with each line's source, for its
    receipt and one Undo (after ``forget`` scrubbed them everywhere else)."""
    row = MemoryVersion.objects.filter(memory_id=memory_id, version=version).first()
    if row is None:
        return
    row.forgotten, row.forgotten_sources = list(lines), list(sources)
    row.counts = {**row.counts, "own": len(row.forgotten)}
    row.save(update_fields=["forgotten", "forgotten_sources", "counts"])


def mark_screened(*, memory_id: int, version: int, reasons: Sequence[str]) -> None:
    """Say why ``version`` removed lines a rules change refuses: reasons, never the lines."""
    MemoryVersion.objects.filter(memory_id=memory_id, version=version).update(
        screened=list(reasons)
    )


def screened_lately(*, memory_id: int) -> tuple[list[str], datetime | None]:
    """Why the safety check last removed lines, and when, if within ``SCREEN_NOTICE_DAYS``: the
    receipt Settings and the API show (a pass may have written since)."""
    since = timezone.now() - timedelta(days=SCREEN_NOTICE_DAYS)
    found = (
        MemoryVersion.objects.filter(
            memory_id=memory_id, kind=MemoryVersion.Kind.SCREEN, created_at__gte=since
        )
        .newest_first()
        .values_list("screened", "created_at")
        .first()
    )
    return (list(found[0]), found[1]) if found else ([], None)


def held_sources(version: MemoryVersion) -> dict[str, Source]:
    """The sources of the lines ``version`` forgot and still holds for Undo."""
    return dict(zip(version.forgotten, version.forgotten_sources, strict=False))


def versions_of(*, memory_id: int, limit: int, lines: bool = False) -> list[MemoryVersion]:
    """The newest ``limit`` versions; without their lines unless asked (the API's list shows
    counts; the History page opens each version), in one query either way."""
    rows = MemoryVersion.objects.filter(memory_id=memory_id).newest_first()
    return list((rows if lines else rows.defer("lines"))[:limit])


def version_of(*, memory_id: int, version: int) -> MemoryVersion | None:
    """That version, or None (an impossible number costs no query, no 500)."""
    if not 0 < version <= MAX_VERSION:
        return None
    return MemoryVersion.objects.filter(memory_id=memory_id, version=version).first()


def version_before(*, memory_id: int, version: int) -> MemoryVersion | None:
    """The kept version just before ``version``, or None."""
    return (
        MemoryVersion.objects.filter(memory_id=memory_id, version__lt=version)
        .newest_first()
        .first()
    )


def sources_by_line(row: MemoryVersion) -> dict[str, Source]:
    """Each line of that version with its source (missing: learned when the version was made)."""
    fallback = provenance.source(provenance.Kind.LEARNED, row.created_at)
    return dict(zip(row.lines, provenance.aligned(row.lines, row.sources, fallback), strict=True))


def newest_version(*, memory_id: int) -> int | None:
    return (
        MemoryVersion.objects.filter(memory_id=memory_id)
        .newest_first()
        .values_list("version", flat=True)
        .first()
    )
