"""The erasure journal: what people deleted, kept apart from the database so that restoring a
backup never brings it back (issue 30, point 4).

Each account deletion, memory clear, deleted line, forget and guest merge appends one line of
JSON to ``ERASURE_JOURNAL``: when, what, the ids, and for lines their tombstone digests (keyed
hashes, ``memory.tombstones``). Never a word of what was said. It is written after the deletion
commits, so a rolled-back one leaves nothing, and it lives outside the database and its
backups: a restore replays every entry made after its snapshot (``manage.py
replay_erasures``).
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

log = logging.getLogger(__name__)

ACCOUNT = "account"  # owner: a person deleted, with everything theirs
CLEAR = "clear"  # memory: every line cleared
LINES = "lines"  # memory, digests: lines deleted or forgotten
MERGE = "merge"  # owner, into: a guest gone into an account (whose later erasures cover it)


# Set while a restore replays the journal: what it erases again is journaled already.
_replaying: ContextVar[bool] = ContextVar("erasures_replaying", default=False)


@contextmanager
def replaying() -> Iterator[None]:
    token = _replaying.set(True)
    try:
        yield
    finally:
        _replaying.reset(token)


def record(kind: str, **ids: Any) -> None:
    """Journal an erasure once the transaction around it commits (at once outside one)."""
    if _replaying.get():
        return
    transaction.on_commit(lambda: _append({"kind": kind, **ids}))


def _append(entry: dict[str, Any]) -> None:
    # Stamped once committed: a snapshot taken while the deletion was open does not hold it.
    entry = {"at": timezone.now().isoformat(), **entry}
    path = Path(settings.ERASURE_JOURNAL)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One write of one short line, appended: writers in several processes never interleave.
        with path.open("a", encoding="utf-8") as journal:
            journal.write(json.dumps(entry, sort_keys=True) + "\n")
            journal.flush()
            os.fsync(journal.fileno())
    except OSError as error:
        # The deletion stands; only a restore from an older backup could bring it back.
        log.error("erasures.journal_failed kind=%s error=%s", entry["kind"], type(error).__name__)


class NoJournal(FileNotFoundError):
    """No journal where ``ERASURE_JOURNAL`` says: a replay would silently erase nothing."""


def since(moment: datetime) -> list[dict[str, Any]]:
    """The entries made after ``moment``, oldest first; a line that cannot be read is skipped.
    Read whole before any is acted on."""
    path = Path(settings.ERASURE_JOURNAL)
    if not path.exists():
        raise NoJournal(str(path))
    found = []
    with path.open(encoding="utf-8") as journal:
        rows = journal.readlines()
    for row in rows:
        try:
            entry = json.loads(row)
            at = datetime.fromisoformat(entry["at"])
        except (ValueError, KeyError, TypeError):
            log.warning("erasures.unreadable_entry")
            continue
        if at > moment:
            found.append(entry)
    return found
