"""Backups of the embedded database, and a restore that never brings back what was erased.

`make run` keeps its data in SQLite: a daily and a weekly snapshot go under ``BACKUP_DIR``,
taken with SQLite's online backup API (consistent while the product runs), and the oldest go
(7 daily, 4 weekly). Each snapshot records when it was taken. ``make restore SNAPSHOT=…``
copies one back (never under a running ``make run``), migrates it, then replays the erasure
journal (``core.erasures``) from that moment: accounts, clears, lines, chats and withdrawn
messages erased since stay gone, and logouts and password changes hold. Production backs up
PostgreSQL with its own tools, then runs the same replay (README).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Callable
from contextlib import closing
from datetime import date, datetime, timedelta
from functools import partial
from pathlib import Path
from typing import Any, Final, TypeVar

from django.conf import settings
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.db import connection, connections
from django.utils import timezone
from knox.models import AuthToken

from accounts import services, tokens
from accounts.models import User
from chat import chats
from chat.models import Conversation, Message, Project
from chat.services import conversations, withdrawing
from core import erasures, running
from core.errors import Invalid
from memory import facade

log = logging.getLogger(__name__)
_T = TypeVar("_T")

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
    # A journal pruned after the snapshot is refused now, not once the database is replaced.
    # None at all, embedded, means nothing was ever erased: the first erasure makes it.
    with contextlib.suppress(erasures.NoJournal):
        erasures.since(since)
    held = running.hold(settings.DATA_DIR)  # and kept: `make run` cannot start meanwhile
    if held is None:
        raise ProductRunning
    with held:
        connections.close_all()
        if database.exists():  # the database as it was, in case the restore was a mistake
            moment = timezone.now()
            kept = Path(settings.BACKUP_DIR) / f"before-restore-{moment:%Y%m%dT%H%M%S}.sqlite3"
            kept.parent.mkdir(parents=True, exist_ok=True)
            _snapshot(database, kept, moment)
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
            _expire()
            return Counter()


def prune_journal() -> int:
    """Journal entries older than any backup kept go (``ERASURE_JOURNAL_KEEP_DAYS``)."""
    return erasures.prune(timezone.now() - timedelta(days=settings.ERASURE_JOURNAL_KEEP_DAYS))


def replay(since: datetime) -> Counter[str]:
    """Apply again every erasure and every end of access journaled after ``since`` (each is
    idempotent), then what has expired since by the clock. Counted by kind; one that fails is
    logged by kind and position and counted as ``failed``, and the rest go on."""
    entries = erasures.since(since)  # whole, before anything is acted on
    lifted = _lifted_later(entries)
    done: Counter[str] = Counter()
    with erasures.replaying():  # journaled already
        for number, entry in enumerate(entries):
            kind = str(entry.get("kind"))[:20]
            step = partial(_replay, entry, lifted.get(number, frozenset()))
            if _guarded(done, kind, number, step):
                done[kind] += 1
        if ended := _guarded(done, erasures.SESSION, len(entries), partial(_end_sessions, entries)):
            done[erasures.SESSION] += ended
        _guarded(done, "expired", len(entries), _expire)
    return done


def _guarded(done: Counter[str], kind: str, number: int, step: Callable[[], _T]) -> _T | None:
    """``step()``, or None when it fails: logged by kind and position, with no traceback (a
    database error may quote the row), and counted as ``failed``."""
    try:
        return step()
    except Exception as error:  # noqa: BLE001 - one odd entry must not stop the others
        log.error(
            "backups.replay_failed kind=%s entry=%s error=%s", kind, number, type(error).__name__
        )
        done["failed"] += 1
        return None


def _expire() -> None:
    """What expired since by the clock: tokens, sessions, temporary chats. Guests count as
    seen now, as the backup cannot tell who came back after it (else the idle ones go)."""
    now = timezone.now()
    tokens.delete_expired_tokens()
    Session.objects.filter(expire_date__lt=now).delete()
    User.objects.filter(is_guest=True, last_seen_at__lt=now).update(last_seen_at=now)
    chats.delete_expired_temporary_chats()


# Kinds that name a person (``owner``) and act on them alone.
_PERSONAL: Final = (
    erasures.ACCOUNT,
    erasures.CLEAR,
    erasures.LINES,
    erasures.UNBURY,
    erasures.TOKENS,
    erasures.PASSWORD,
)


def _replay(entry: dict[str, Any], lifted: frozenset[str]) -> bool:
    """One entry again; whether this database still held what it names."""
    kind = entry.get("kind")
    moment = datetime.fromisoformat(entry["at"])  # read by ``erasures.since``
    if kind in _PERSONAL:
        user = _person(entry, "owner", moment)
        return user is not None and _replay_personal(kind, entry, user, moment, lifted)
    if kind == erasures.MERGE:
        # The guest went into the account: merged again, so the account's later erasures reach
        # what it brought; with no account to go into, it goes.
        guest = _person(entry, "owner", moment, is_guest=True)
        account = _person(entry, "into", moment, is_guest=False)
        if guest is None:
            return False
        if account is not None:
            services.merge_guest(guest=guest, account=account)
        else:
            services.delete_account(user=guest)
        return True
    if kind == erasures.CHATS:
        projects = _rows(Project, entry.get("projects"))
        chats_back = _rows(Conversation, entry.get("conversations"))
        for project in projects:
            conversations.delete_project(project=project)
        for conversation in chats_back:
            if Conversation.objects.filter(pk=conversation.pk).exists():  # not with a project
                conversations.delete_conversation(conversation=conversation)
        return bool(projects or chats_back)
    if kind == erasures.MESSAGE:
        return _withdraw_again(entry)
    if kind == erasures.TOKEN and isinstance(entry.get("digest"), str):
        return AuthToken.objects.filter(digest=entry["digest"]).delete()[0] > 0
    return False


def _replay_personal(
    kind: str, entry: dict[str, Any], user: User, moment: datetime, lifted: frozenset[str]
) -> bool:
    if kind == erasures.ACCOUNT:
        services.delete_account(user=user)
    elif kind == erasures.CLEAR:
        facade.clear_memory(owner_id=user.pk)
    elif kind == erasures.LINES:
        # Less the lines the person asked to remember again later.
        wanted = [d for d in _digests(entry) if d not in lifted]
        facade.erase_lines(owner_id=user.pk, digests=wanted)
        return bool(wanted)
    elif kind == erasures.UNBURY:
        facade.unbury_lines(owner_id=user.pk, digests=_digests(entry))
    else:
        if kind == erasures.PASSWORD:
            # The one the backup holds may be the leaked one: none works until a reset (every
            # session of theirs ends with it).
            user.set_unusable_password()
            user.save(update_fields=["password"])
        ended = AuthToken.objects.filter(user=user, created__lt=moment).delete()[0]
        return kind == erasures.PASSWORD or ended > 0
    return True


def _lifted_later(entries: list[dict[str, Any]]) -> dict[int, frozenset[str]]:
    """For each LINES entry, its digests that a later UNBURY of the same person lifted."""
    lifted: dict[int, frozenset[str]] = {}
    later: dict[str, set[str]] = {}
    for number in range(len(entries) - 1, -1, -1):
        entry = entries[number]
        owner = json.dumps(entry.get("owner"))
        if entry.get("kind") == erasures.UNBURY:
            later.setdefault(owner, set()).update(_digests(entry))
        elif entry.get("kind") == erasures.LINES and owner in later:
            lifted[number] = frozenset(later[owner])
    return lifted


def _digests(entry: dict[str, Any]) -> list[str]:
    found = entry.get("digests")
    return (
        [d for d in found if isinstance(d, str) and _DIGEST_RE.fullmatch(d)]
        if isinstance(found, list)
        else []
    )


_DIGEST_RE: Final = re.compile(r"[0-9a-f]{64}")


def _person(entry: dict[str, Any], field: str, moment: datetime, **also: Any) -> User | None:
    """The person an entry names, if this database holds that very one. An entry of the
    first journal names them by id alone (or by memory): then only someone who joined before
    it was made can be them."""
    value = entry.get(field)
    if type(value) is int:
        return User.objects.filter(pk=value, date_joined__lt=moment, **also).first()
    if field == "owner" and type(memory := entry.get("memory")) is int:
        return User.objects.filter(memory__pk=memory, date_joined__lt=moment, **also).first()
    found = erasures.unkey(value)
    if found is None:
        return None
    return User.objects.filter(pk=found[0], date_joined=found[1], **also).first()


def _rows(model: type[Project | Conversation], values: Any) -> list[Any]:
    if not isinstance(values, list):
        return []
    named = [found for value in values if (found := erasures.unkey(value))]
    return [
        row for pk, made in named if (row := model.objects.filter(pk=pk, created_at=made).first())
    ]


def _end_sessions(entries: list[dict[str, Any]]) -> int:
    """Web sessions logged out after the backup (journaled as a hash of their key)."""
    ended = {
        entry["session"]
        for entry in entries
        if entry.get("kind") == erasures.SESSION and isinstance(entry.get("session"), str)
    }
    if not ended:
        return 0
    keys = [
        key
        for key in Session.objects.values_list("session_key", flat=True).iterator()
        if erasures.session_digest(key) in ended
    ]
    return Session.objects.filter(session_key__in=keys).delete()[0]


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
