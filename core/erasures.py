"""The erasure journal: what people deleted, kept apart from the database so that restoring a
backup never brings it back (issue 30, point 4).

Each account deletion, memory clear, deleted line, forget, guest merge, deleted chat,
withdrawn message, logout and password change appends one line of JSON to
``ERASURE_JOURNAL``: when, what, the rows it names, and hashes (for lines, their tombstone
digests). Never a word of what was said. It is written after the deletion commits, so a
rolled-back one leaves nothing, and it lives outside the database and its backups: a restore
replays every entry made after its snapshot (``manage.py replay_erasures``).

A row is named by its id and the moment it was made (``key``): a restore brings the id
sequences back too, so after one an id alone may name somebody else.
"""

from __future__ import annotations

import fcntl
import hashlib
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
CLEAR = "clear"  # owner: every line of their memory cleared
LINES = "lines"  # owner, digests: lines deleted or forgotten
MERGE = "merge"  # owner, into: a guest gone into an account (whose later erasures cover it)
CHATS = "chats"  # conversations, projects: deleted with their messages
MESSAGE = "message"  # conversation, message: withdrawn (edited away) with its reply
UNBURY = "unbury"  # owner, digests: lines asked to remember again (a forget undone)
# Ends of access: what a restore would otherwise let in again.
TOKEN = "token"  # noqa: S105 - digest: one device logged out (knox's digest of the token)
TOKENS = "tokens"  # owner: every token made before then ended
SESSION = "session"  # session: a web session logged out (SHA-256 of its key)
PASSWORD = "password"  # noqa: S105 - owner: the password changed or was reset
PRUNED = "pruned"  # the journal holds nothing older than this entry

Key = list[Any]  # [id, ISO 8601 moment it was made]


def session_digest(session_key: str) -> str:
    """A web session as the journal names it: a hash, as its key would let one in."""
    return hashlib.sha256(session_key.encode()).hexdigest()


def key(pk: int, made: datetime) -> Key:
    return [pk, made.isoformat()]


def unkey(value: Any) -> tuple[int, datetime] | None:
    """The id and moment a ``key`` names; None for anything else."""
    if not (isinstance(value, list) and len(value) == 2 and type(value[0]) is int):
        return None
    try:
        made = datetime.fromisoformat(value[1])
    except (TypeError, ValueError):
        return None
    return (value[0], made) if made.tzinfo is not None else None


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


@contextmanager
def _locked() -> Iterator[Path]:
    """The journal, held against a prune rewriting it (appends alone never interleave)."""
    path = Path(settings.ERASURE_JOURNAL)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.with_name(f"{path.name}.lock").open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield path


def _append(entry: dict[str, Any]) -> None:
    # Stamped once committed: a snapshot taken while the deletion was open does not hold it.
    entry = {"at": timezone.now().isoformat(), **entry}
    try:
        with _locked() as path, path.open("a", encoding="utf-8") as journal:
            journal.write(json.dumps(entry, sort_keys=True) + "\n")
            journal.flush()
            os.fsync(journal.fileno())
    except OSError as error:
        # The deletion stands; only a restore from an older backup could bring it back.
        log.error("erasures.journal_failed kind=%s error=%s", entry["kind"], type(error).__name__)


def prune(before: datetime) -> int:
    """Drop the entries made before ``before`` (no backup that old is kept); how many went.
    The journal is rewritten whole and swapped in, so a crash leaves the old one."""
    try:
        with _locked() as path:
            if not path.exists():
                return 0
            rows = path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)
            stamped = [(row, _stamp(row)) for row in rows]
            kept = [row for row, at in stamped if at is not None and at >= before]
            # Unreadable lines go too: no replay can act on them.
            dropped = [row for row, at in stamped if at is None or at < before]
            if not dropped:
                return 0
            # Says how far back the journal reaches: a replay from before it is refused.
            horizon = json.dumps({"at": before.isoformat(), "kind": PRUNED}) + "\n"
            fresh = path.with_name(f"{path.name}.new")
            with fresh.open("w", encoding="utf-8") as journal:
                journal.writelines([horizon, *kept])
                journal.flush()
                os.fsync(journal.fileno())
            os.replace(fresh, path)
            return sum(f'"kind": "{PRUNED}"' not in row for row in dropped)
    except OSError as error:
        log.error("erasures.prune_failed error=%s", type(error).__name__)
        return 0


def _stamp(row: str) -> datetime | None:
    """When an entry was made; None for a line that is no entry (or has no offset)."""
    try:
        at = datetime.fromisoformat(json.loads(row)["at"])
    except (ValueError, KeyError, TypeError, RecursionError):
        return None
    return at if at.tzinfo is not None else None


class NoJournal(FileNotFoundError):
    """No journal where ``ERASURE_JOURNAL`` says: a replay would silently erase nothing."""


class JournalTooShort(ValueError):
    """The journal was pruned after ``moment``: what was erased in between is not known."""


def since(moment: datetime) -> list[dict[str, Any]]:
    """The entries made after ``moment``, oldest first; a line that cannot be read is skipped.
    Read whole before any is acted on."""
    path = Path(settings.ERASURE_JOURNAL)
    if not path.exists():
        raise NoJournal(str(path))
    found = []
    with path.open(encoding="utf-8", errors="replace") as journal:
        rows = journal.readlines()
    for number, row in enumerate(rows, 1):
        at = _stamp(row)
        if at is None:
            log.warning("erasures.unreadable_entry line=%s", number)
            continue
        entry = json.loads(row)
        if entry.get("kind") == PRUNED and at > moment:
            raise JournalTooShort(at.isoformat())
        if at > moment:
            found.append(entry)
    return found
