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
from datetime import date, datetime
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
    _prune(folder, now)
    return taken


def _snapshot(database: Path, path: Path, now: datetime) -> None:
    partial = path.with_suffix(".partial")
    with closing(sqlite3.connect(database)) as source, closing(sqlite3.connect(partial)) as copy:
        source.backup(copy)  # consistent while others write
        copy.execute("PRAGMA journal_mode=DELETE")  # one file, readable from a read-only folder
        copy.execute(f"CREATE TABLE {MARK} (taken_at TEXT NOT NULL)")
        copy.execute(f"INSERT INTO {MARK} VALUES (?)", (now.isoformat(),))  # noqa: S608 - ours
        copy.commit()
    os.replace(partial, path)  # a snapshot is whole or absent


def _prune(folder: Path, now: datetime) -> None:
    """Snapshots older than they are kept for (7 days, 4 weeks), and what a crash left."""
    today = now.date()
    for path in folder.glob("daily-*.sqlite3"):
        day = _day_of(path.stem.removeprefix("daily-"))
        if day is None or (today - day).days >= settings.BACKUP_KEEP_DAILY:
            path.unlink(missing_ok=True)
    for path in folder.glob("weekly-*.sqlite3"):
        year, _, week = path.stem.removeprefix("weekly-").partition("-W")
        monday = _day_of(f"{year}-W{week}-1", "%G-W%V-%u")
        if monday is None or (today - monday).days >= 7 * settings.BACKUP_KEEP_WEEKLY:
            path.unlink(missing_ok=True)
    for leftover in [*folder.glob("*.partial"), *folder.glob("*.sqlite3-wal")]:
        leftover.unlink(missing_ok=True)
    for leftover in folder.glob("*.sqlite3-shm"):
        leftover.unlink(missing_ok=True)


def _day_of(text: str, pattern: str = "%Y-%m-%d") -> date | None:
    try:
        return datetime.strptime(text, pattern).date()
    except ValueError:
        return None


def taken_at(snapshot: Path) -> datetime:
    """When ``snapshot`` was taken, from its mark."""
    try:
        with closing(sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)) as copy:
            if copy.execute("PRAGMA integrity_check").fetchone() != ("ok",):
                raise NotASnapshot
            row = copy.execute(f"SELECT taken_at FROM {MARK}").fetchone()  # noqa: S608 - ours
    except sqlite3.Error:
        raise NotASnapshot from None
    if row is None:
        raise NotASnapshot
    try:
        moment = datetime.fromisoformat(row[0])
    except (TypeError, ValueError):
        raise NotASnapshot from None
    if moment.tzinfo is None or moment > timezone.now():
        raise NotASnapshot
    return moment


def restore(snapshot: Path) -> Counter[str]:
    """Make ``snapshot`` the database (stop the product first), migrate it, and replay every
    erasure made after it. The replayed erasures, counted by kind."""
    database = _database()
    since = taken_at(snapshot)  # checked whole before anything is overwritten
    connections.close_all()
    if database.exists():  # the database as it was, in case the restore was a mistake
        kept = Path(settings.BACKUP_DIR) / f"before-restore-{timezone.now():%Y%m%dT%H%M%S}.sqlite3"
        kept.parent.mkdir(parents=True, exist_ok=True)
        _snapshot(database, kept, timezone.now())
    with (
        closing(sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)) as copy,
        closing(sqlite3.connect(database)) as live,
    ):
        copy.backup(live)
        live.execute(f"DROP TABLE IF EXISTS {MARK}")
        live.commit()
    call_command("migrate", verbosity=0)
    try:
        return replay(since)
    except erasures.NoJournal:
        return Counter()  # embedded, nothing was ever erased: the journal is made by the first


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
    elif kind == erasures.MERGE and isinstance(owner, int):
        # The guest went into the account: merged again, so the account's later erasures reach
        # what it brought; with no account to go into, it goes.
        guest = User.objects.filter(pk=owner, is_guest=True).first()
        into = entry.get("into")
        account = (
            User.objects.filter(pk=into, is_guest=False).first() if isinstance(into, int) else None
        )
        if guest is not None and account is not None:
            services.merge_guest(guest=guest, account=account)
        elif guest is not None:
            services.delete_account(user=guest)
    elif kind == erasures.LINES and isinstance(memory, int):
        facade.erase_lines(memory_id=memory, digests=list(entry.get("digests") or []))
    else:
        return
    done[str(kind)] += 1
