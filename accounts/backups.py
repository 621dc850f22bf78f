"""Backups of the embedded database, and a restore that never brings back what was erased.

`make run` keeps its data in SQLite: a daily and a weekly snapshot go under ``BACKUP_DIR``,
taken with SQLite's online backup API (consistent while the product runs), and the oldest go
(7 daily, 4 weekly). Each snapshot records when it was taken. ``make restore SNAPSHOT=…``
copies one back (never under a running ``make run``), migrates it, then replays the erasure
journal (``core.erasures``) from that moment: accounts, clears, lines, chats and withdrawn
messages erased since stay gone, and everyone signs in again. Production backs up PostgreSQL
with its own tools, then runs the same replay (README).
"""

from __future__ import annotations

import os
import sqlite3
from collections import Counter
from contextlib import closing
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone

from accounts import services, tokens
from accounts.models import User
from chat import chats
from chat.models import Conversation, Message, Project
from chat.services import conversations, withdrawing
from core import erasures, running
from core.errors import Invalid
from memory import facade

MARK = "whizi_snapshot"  # the table a snapshot says when it was taken in


class NotEmbedded(Invalid):
    code = "not_embedded"
    detail = "Snapshots are for the embedded SQLite database; back up PostgreSQL with its tools."


class ProductRunning(Invalid):
    code = "product_running"
    detail = "make run is still running on this data folder: stop it, then restore."


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
    if running.running(settings.DATA_DIR):
        raise ProductRunning
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


def prune_journal() -> int:
    """Journal entries older than any backup kept go (``ERASURE_JOURNAL_KEEP_DAYS``)."""
    return erasures.prune(timezone.now() - timedelta(days=settings.ERASURE_JOURNAL_KEEP_DAYS))


def replay(since: datetime) -> Counter[str]:
    """Apply again every erasure journaled after ``since`` (each is idempotent), then sign
    everyone out and expire what has expired: a session, token or temporary chat ended after
    the backup is back with it. The replayed erasures, counted by kind."""
    done: Counter[str] = Counter()
    with erasures.replaying():  # journaled already
        for entry in erasures.since(since):
            _replay(entry, done)
        tokens.end_every_token()
        Session.objects.all().delete()
        services.delete_idle_guests()
        chats.delete_expired_temporary_chats()
    return done


def _replay(entry: dict[str, Any], done: Counter[str]) -> None:
    """One entry again, counted when this database still held what it names."""
    kind = entry.get("kind")
    if kind in (erasures.ACCOUNT, erasures.CLEAR, erasures.LINES):
        user = _person(entry.get("owner"))
        if user is None:
            return
        if kind == erasures.ACCOUNT:
            services.delete_account(user=user)
        elif kind == erasures.CLEAR:
            facade.clear_memory(owner_id=user.pk)
        else:
            facade.erase_lines(owner_id=user.pk, digests=list(entry.get("digests") or []))
    elif kind == erasures.MERGE:
        # The guest went into the account: merged again, so the account's later erasures reach
        # what it brought; with no account to go into, it goes.
        guest = _person(entry.get("owner"), is_guest=True)
        account = _person(entry.get("into"), is_guest=False)
        if guest is None:
            return
        if account is not None:
            services.merge_guest(guest=guest, account=account)
        else:
            services.delete_account(user=guest)
    elif kind == erasures.CHATS:
        projects = _rows(Project, entry.get("projects"))
        chats_back = _rows(Conversation, entry.get("conversations"))
        if not projects and not chats_back:
            return
        for project in projects:
            conversations.delete_project(project=project)
        for conversation in chats_back:
            if Conversation.objects.filter(pk=conversation.pk).exists():  # not with a project
                conversations.delete_conversation(conversation=conversation)
    elif kind == erasures.MESSAGE:
        if not _withdraw_again(entry):
            return
    else:
        return
    done[str(kind)] += 1


def _person(value: Any, **also: Any) -> User | None:
    """The person a journal key names, if this database holds that very one."""
    found = erasures.unkey(value)
    if found is None:
        return None
    return User.objects.filter(pk=found[0], date_joined=found[1], **also).first()


def _rows(model: type[Project | Conversation], values: Any) -> list[Any]:
    named = [found for value in values or [] if (found := erasures.unkey(value))]
    return [
        row for pk, made in named if (row := model.objects.filter(pk=pk, created_at=made).first())
    ]


def _withdraw_again(entry: dict[str, Any]) -> bool:
    """The message is back, and was the last when it was withdrawn: withdrawn again, with what
    memory learned from it."""
    (conversation,) = _rows(Conversation, [entry.get("conversation")]) or (None,)
    message = erasures.unkey(entry.get("message"))
    if conversation is None or message is None:
        return False
    pk, made = message
    if not Message.objects.filter(pk=pk, created_at=made, conversation=conversation).exists():
        return False
    try:
        withdrawing.withdraw_last_message(conversation, pk)
    except (withdrawing.MessageNotFound, withdrawing.NotLastMessage):
        return False
    return True
