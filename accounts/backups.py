"""Backups of the embedded database, and a restore that never brings back what was erased.

`make run` keeps its data in SQLite: a daily and a weekly snapshot go under ``BACKUP_DIR``,
taken with SQLite's online backup API (consistent while the product runs), and the oldest go
(7 daily, 4 weekly). Each snapshot records when it was taken. ``make restore SNAPSHOT=…``
copies one back, migrates it, then replays the erasure journal (``core.erasures``) from that
moment: accounts deleted, memories cleared, lines deleted or forgotten since stay gone.
Production backs up PostgreSQL with its own tools, then runs the same replay (README).
"""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from contextlib import closing
from datetime import datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from accounts import services
from accounts.models import User
from core import erasures
from core.errors import Invalid
from memory import facade

MARK = "whizi_snapshot"  # the table a snapshot says when it was taken in


class NotEmbedded(Invalid):
    code = "not_embedded"
    detail = "Snapshots are for the embedded SQLite database; back up PostgreSQL with its tools."


class NotASnapshot(Invalid):
    code = "not_a_snapshot"
    detail = "That file is not a snapshot taken by backup_database."


def _database() -> Path:
    if connection.vendor != "sqlite":
        raise NotEmbedded
    return Path(settings.DATABASES["default"]["NAME"])


def take_snapshots(now: datetime | None = None) -> list[Path]:
    """Today's daily snapshot and this week's weekly one, each if missing; then the oldest go."""
    database = _database()
    now = now or timezone.now()
    folder = Path(settings.BACKUP_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    year, week, _ = now.isocalendar()
    wanted = [
        folder / f"daily-{now.date().isoformat()}.sqlite3",
        folder / f"weekly-{year}-W{week:02d}.sqlite3",
    ]
    taken = [path for path in wanted if not path.exists()]
    for path in taken:
        _snapshot(database, path, now)
    _prune(folder, "daily-", settings.BACKUP_KEEP_DAILY)
    _prune(folder, "weekly-", settings.BACKUP_KEEP_WEEKLY)
    return taken


def _snapshot(database: Path, path: Path, now: datetime) -> None:
    partial = path.with_suffix(".partial")
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(partial)) as copy:
        source.backup(copy)  # consistent while others write
        copy.execute(f"CREATE TABLE {MARK} (taken_at TEXT NOT NULL)")
        copy.execute(f"INSERT INTO {MARK} VALUES (?)", (now.isoformat(),))  # noqa: S608 - ours
        copy.commit()
    os.replace(partial, path)  # a snapshot is whole or absent


def _prune(folder: Path, prefix: str, keep: int) -> None:
    for old in sorted(folder.glob(f"{prefix}*.sqlite3"), reverse=True)[keep:]:
        old.unlink(missing_ok=True)


def taken_at(snapshot: Path) -> datetime:
    """When ``snapshot`` was taken, from its mark."""
    try:
        with closing(sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)) as copy:
            row = copy.execute(f"SELECT taken_at FROM {MARK}").fetchone()  # noqa: S608 - ours
    except sqlite3.Error:
        raise NotASnapshot from None
    if row is None:
        raise NotASnapshot
    return datetime.fromisoformat(row[0])


def restore(snapshot: Path) -> Counter[str]:
    """Make ``snapshot`` the database (stop the product first), migrate it, and replay every
    erasure made after it. The replayed erasures, counted by kind."""
    database = _database()
    since = taken_at(snapshot)
    connections.close_all()
    with (
        closing(sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)) as copy,
        closing(sqlite3.connect(database)) as live,
    ):
        copy.backup(live)
        live.execute(f"DROP TABLE IF EXISTS {MARK}")
        live.commit()
    call_command("migrate", verbosity=0)
    return replay(since)


def replay(since: datetime) -> Counter[str]:
    """Apply again every erasure journaled after ``since``: each is idempotent."""
    done: Counter[str] = Counter()
    with erasures.replaying():  # journaled already
        for entry in erasures.since(since):
            _replay(entry, done)
    return done


def _replay(entry: dict[str, Any], done: Counter[str]) -> None:
    kind, owner, memory = entry.get("kind"), entry.get("owner"), entry.get("memory")
    if kind == erasures.ACCOUNT and isinstance(owner, int):
        user = User.objects.filter(pk=owner).first()
        if user is not None:
            services.delete_account(user=user)
    elif kind == erasures.CLEAR and isinstance(memory, int):
        if (owner := facade.memory_owner(memory_id=memory)) is not None:
            facade.clear_memory(owner_id=owner)
    elif kind == erasures.LINES and isinstance(memory, int):
        facade.erase_lines(memory_id=memory, digests=list(entry.get("digests") or []))
    else:
        return
    done[str(kind)] += 1
