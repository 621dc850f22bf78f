"""Backups and restore (issue 30, point 4): the erasure journal holds ids and keyed hashes only,
and a restored snapshot never brings back an account, a clear, a line or a forget made after
it. The whole embedded cycle runs for real: SQLite, `manage.py` commands in their own process."""

from __future__ import annotations

import copy
import json
import os
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac
from knox.models import AuthToken

from accounts import backups, passwords, tokens
from accounts import services as accounts_services
from accounts.models import User
from chat.models import Conversation, Message, Project
from chat.services import conversations, withdrawing
from config.keys import LEGACY_EMBEDDED_KEY
from core import erasures, running
from memory import services as memory_services
from memory import tombstones
from memory.models import ForgottenLine, Memory, MemoryVersion
from tests.conftest import make_account
from tests.memory.helpers import conversation_with
from tests.test_make_run import EMBEDDED_ENV_DROPS

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def journal(settings, tmp_path) -> Path:
    settings.ERASURE_JOURNAL = str(tmp_path / "erasures.jsonl")
    return Path(settings.ERASURE_JOURNAL)


def named(user: User) -> list:
    return erasures.key(user.pk, user.date_joined)


def entries(journal: Path) -> list[dict]:
    return [json.loads(row) for row in journal.read_text().splitlines()] if journal.exists() else []


@pytest.mark.django_db(transaction=True)
def test_each_erasure_is_journaled_with_ids_and_hashes_only(journal, account):
    memory_services.add_line(owner_id=account.pk, text="Has a cat named Felix")
    memory_services.add_line(owner_id=account.pk, text="Lives in Turin")
    memory_services.delete_line(owner_id=account.pk, index=0, expected_version=None)
    memory_services.clear_memory(owner_id=account.pk)
    accounts_services.delete_account(user=account)

    kinds = [entry["kind"] for entry in entries(journal)]
    assert kinds == ["lines", "lines", "clear", "account"]
    first = entries(journal)[0]
    assert first["digests"] == [tombstones.digest("Has a cat named Felix")]
    assert {tuple(e["owner"]) for e in entries(journal)} == {tuple(named(account))}
    text = journal.read_text()
    for word in ("Felix", "Turin", "anna@example.com"):
        assert word not in text


@pytest.mark.django_db(transaction=True)
def test_an_erasure_is_stamped_when_it_commits(journal, account):
    """A snapshot taken while the deletion was still open does not hold it: the entry's time
    must come after the snapshot's, so the restore replays it."""
    memory_services.add_line(owner_id=account.pk, text="Owes money to a friend")
    with transaction.atomic():
        memory_services.delete_line(owner_id=account.pk, index=0, expected_version=None)
        snapshot = timezone.now()
    (entry,) = entries(journal)
    assert entry["at"] > snapshot.isoformat()
    assert [e["kind"] for e in erasures.since(snapshot)] == ["lines"]


def test_a_replay_without_its_journal_fails_loudly(settings, tmp_path):
    settings.ERASURE_JOURNAL = str(tmp_path / "missing.jsonl")
    with pytest.raises(CommandError, match="no erasure journal"):
        call_command("replay_erasures", "--since", "2026-12-01T00:00:00+00:00")


@pytest.mark.parametrize("mark", ["2026-12-01T00:00:00", "2999-01-01T00:00:00+00:00", "soon"])
def test_a_snapshot_with_a_mark_out_of_reach_is_refused(tmp_path, mark):
    path = tmp_path / "snapshot.sqlite3"
    with sqlite3.connect(path) as copy:
        copy.execute("CREATE TABLE whizi_snapshot (taken_at TEXT NOT NULL)")
        copy.execute("INSERT INTO whizi_snapshot VALUES (?)", (mark,))
    with pytest.raises(backups.NotASnapshot):
        backups.taken_at(path)


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_deletion_journals_nothing(journal, account):
    memory_services.add_line(owner_id=account.pk, text="Has a cat named Felix")
    with pytest.raises(RuntimeError), transaction.atomic():
        memory_services.delete_line(owner_id=account.pk, index=0, expected_version=None)
        raise RuntimeError
    assert entries(journal) == []


@pytest.mark.django_db(transaction=True)
def test_a_replay_erases_again_only_what_was_erased_after_the_snapshot(journal, account):
    """As after a restore: the rows are back, the journal says what went since."""
    for line in ("Has a cat named Felix", "Lives in Turin", "Likes figs"):
        memory_services.add_line(owner_id=account.pk, text=line)
    bob = make_account("bob@example.com")
    memory_services.add_line(owner_id=bob.pk, text="Plays chess")
    carla = make_account("carla@example.com")
    memory_services.add_line(owner_id=carla.pk, text="Sings in a choir")
    memory = Memory.objects.get(owner=account)
    carla_memory = Memory.objects.get(owner=carla)
    snapshot = timezone.now()
    erasures.record(erasures.ACCOUNT, owner=named(bob))
    erasures.record(
        erasures.LINES, owner=named(account), digests=[tombstones.digest("has a cat named felix.")]
    )
    erasures.record(erasures.CLEAR, owner=named(carla))
    # Made before the snapshot: a restore keeps what the snapshot holds.
    journal.write_text(
        json.dumps(
            {
                "at": (snapshot - timedelta(hours=1)).isoformat(),
                "kind": "lines",
                "owner": named(account),
                "digests": [tombstones.digest("Likes figs")],
            }
        )
        + "\n"
        + journal.read_text()
    )

    done = backups.replay(snapshot)

    assert done == {"account": 1, "lines": 1, "clear": 1}
    assert not User.objects.filter(pk=bob.pk).exists()
    assert Memory.objects.get(pk=memory.pk).lines == ["Lives in Turin", "Likes figs"]
    for version in MemoryVersion.objects.filter(memory=memory):
        assert "Has a cat named Felix" not in version.lines
        assert "Has a cat named Felix" not in version.added
    assert ForgottenLine.objects.filter(
        memory=memory, digest=tombstones.digest("Has a cat named Felix")
    ).exists()
    assert Memory.objects.get(pk=carla_memory.pk).lines == []
    assert backups.replay(snapshot) == {"lines": 1, "clear": 1}  # again: nothing changes
    assert Memory.objects.get(pk=memory.pk).lines == ["Lives in Turin", "Likes figs"]


# --- The embedded cycle, for real ---------------------------------------------------------------


STATE = """
import json
from accounts.models import User
from chat.models import Conversation, Message, Project
from chat.services import conversations, withdrawing
from memory.models import Memory, MemoryVersion
anna = User.objects.get(email="anna@example.com")
memory = Memory.objects.get(owner=anna)
print(json.dumps({
    "bob": User.objects.filter(email="bob@example.com").exists(),
    "lines": memory.lines,
    "versions": sorted(
        {line for v in MemoryVersion.objects.filter(memory=memory) for line in v.lines}
    ),
}))
"""


def run_manage(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in EMBEDDED_ENV_DROPS}
    env["DATA_DIR"] = str(data)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def manage(data: Path, *args: str, code: str | None = None) -> str:
    done = run_manage(data, *args, *(["-c", code] if code is not None else []))
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_a_restored_snapshot_never_brings_back_a_deleted_account_or_line(tmp_path):
    data = tmp_path / "var"
    data.mkdir()  # as `make run` makes it
    manage(data, "migrate", "--verbosity", "0")
    # Snapshots older than they are kept for go, whatever their number.
    (data / "backups").mkdir()
    for old in ("daily-2020-01-01.sqlite3", "weekly-2020-W01.sqlite3", "daily-x.sqlite3.partial"):
        (data / "backups" / old).write_bytes(b"")
    manage(
        data,
        "shell",
        code="""
from tests.conftest import make_account
from tests.memory.helpers import conversation_with
from tests.test_make_run import EMBEDDED_ENV_DROPS
from memory import services
anna, bob = make_account("anna@example.com"), make_account("bob@example.com")
for line in ("Has a cat named Felix", "Lives in Turin"):
    services.add_line(owner_id=anna.pk, text=line)
services.add_line(owner_id=bob.pk, text="Plays chess")
""",
    )
    assert "snapshot" in manage(data, "backup_database")
    (snapshot,) = sorted((data / "backups").glob("daily-*.sqlite3"))
    assert len(list((data / "backups").glob("weekly-*.sqlite3"))) == 1
    assert not list((data / "backups").glob("*.partial"))
    manage(
        data,
        "shell",
        code="""
from accounts.models import User
from chat.models import Conversation, Message, Project
from chat.services import conversations, withdrawing
from accounts import services as accounts
from memory import services
anna = User.objects.get(email="anna@example.com")
services.delete_line(owner_id=anna.pk, index=0, expected_version=None)
accounts.delete_account(user=User.objects.get(email="bob@example.com"))
services.add_line(owner_id=anna.pk, text="Likes figs")
""",
    )

    # Not under a running product: `make run` holds the data folder's lock.
    held = running.hold(data)
    refused = run_manage(data, "restore_snapshot", str(snapshot))
    held.close()
    assert refused.returncode != 0
    assert "still running" in refused.stderr
    assert not list((data / "backups").glob("before-restore-*.sqlite3"))

    out = manage(data, "restore_snapshot", str(snapshot))

    assert "erasures replayed" in out
    # The database as it was before the restore is kept, in case the restore was a mistake.
    assert len(list((data / "backups").glob("before-restore-*.sqlite3"))) == 1
    state = json.loads(manage(data, "shell", code=STATE).strip().splitlines()[-1])
    assert state["bob"] is False
    assert state["lines"] == ["Lives in Turin"]  # as the snapshot had it, less what was erased
    assert "Has a cat named Felix" not in state["versions"]
    journal = (data / "erasures.jsonl").read_text()
    assert "Felix" not in journal
    assert "bob@example.com" not in journal
    # Hashed with the data folder's own key, readable by its owner alone, not a public one.
    assert (data / "secret_key").stat().st_mode & 0o777 == 0o600
    public = salted_hmac(
        "memory.tombstones.ForgottenLine",
        tombstones.normal("Has a cat named Felix"),
        secret=LEGACY_EMBEDDED_KEY,
        algorithm="sha256",
    ).hexdigest()
    assert public not in journal
    assert len(json.loads(journal.splitlines()[0])["digests"][0]) == len(public)


def test_a_file_that_is_no_snapshot_is_refused(tmp_path):
    data = tmp_path / "var"
    data.mkdir()  # as `make run` makes it
    manage(data, "migrate", "--verbosity", "0")
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(b"not a database")
    done = run_manage(data, "restore_snapshot", str(bogus))
    assert done.returncode != 0
    assert "not a snapshot" in done.stderr


@pytest.mark.django_db(transaction=True)
def test_a_guest_merged_into_an_account_deleted_later_stays_gone(journal):
    """The snapshot holds the guest; after it the guest signed up and the account was deleted."""
    guest = accounts_services.create_guest()
    memory_services.add_line(owner_id=guest.pk, text="Was diagnosed with asthma")
    account = make_account("dana@example.com")
    newcomer = accounts_services.create_guest()
    snapshot = timezone.now()
    erasures.record(erasures.MERGE, owner=named(guest), into=named(account))
    erasures.record(erasures.ACCOUNT, owner=named(account))
    erasures.record(
        erasures.MERGE,
        owner=named(newcomer),
        into=[account.pk + 1_000, "2026-01-01T00:00:00+00:00"],
    )

    backups.replay(snapshot)

    assert not User.objects.filter(pk__in=[guest.pk, account.pk, newcomer.pk]).exists()
    assert not Memory.objects.filter(owner_id__in=[guest.pk, account.pk]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_guest_merge_is_journaled(journal, account):
    guest = accounts_services.create_guest()
    memory_services.add_line(owner_id=guest.pk, text="Likes figs")
    accounts_services.merge_guest(guest=guest, account=account)
    merges = [(e["owner"], e["into"]) for e in entries(journal) if e["kind"] == "merge"]
    assert merges == [(named(guest), named(account))]


# --- Ids that come back, chats, messages, sessions ------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_replay_never_erases_someone_who_got_a_reused_id(journal):
    """After an earlier restore the sequences are back: a newcomer may hold the id of someone
    erased in the abandoned timeline. The journal names people by id and when they joined."""
    erin = make_account("erin@example.com")
    memory_services.add_line(owner_id=erin.pk, text="Plays the oboe")
    snapshot = timezone.now()
    gone = [erin.pk, (erin.date_joined - timedelta(days=3)).isoformat()]  # another Erin
    erasures.record(erasures.ACCOUNT, owner=gone)
    erasures.record(erasures.CLEAR, owner=gone)
    erasures.record(erasures.LINES, owner=gone, digests=[tombstones.digest("Plays the oboe")])

    assert backups.replay(snapshot) == {}
    assert Memory.objects.get(owner=erin).lines == ["Plays the oboe"]


def put_back(*rows):
    """As a restore puts rows back: the same ids and the same creation times."""
    for row in rows:
        made = row.created_at
        row.save(force_insert=True)
        type(row).objects.filter(pk=row.pk).update(created_at=made)


@pytest.mark.django_db(transaction=True)
def test_deleted_chats_and_a_withdrawn_message_stay_gone_after_a_replay(journal, account):
    chat = conversation_with(account, "My blood test came back fine", "Good news")
    project = Project.objects.create(owner=account, name="Divorce papers")
    in_project = conversation_with(account, "Draft a letter to my lawyer", "Here it is")
    Conversation.objects.filter(pk=in_project.pk).update(project=project)
    in_project.refresh_from_db()
    edited = conversation_with(account, "I earn 80k a year", "Noted")
    kept = conversation_with(account, "Hello", "Hi")
    withdrawn = Message.objects.get(conversation=edited, role="user")
    snapshot = timezone.now()
    as_snapshot_had = [copy.copy(row) for row in (chat, project, in_project, withdrawn)]
    conversations.delete_conversation(conversation=chat)
    conversations.delete_project(project=project)
    withdrawing.withdraw_last_message(edited, withdrawn.pk)
    assert [e["kind"] for e in entries(journal)] == ["chats", "chats", "message"]
    first = as_snapshot_had[0]
    assert entries(journal)[0]["conversations"] == [erasures.key(first.pk, first.created_at)]
    for word in ("blood", "Divorce", "lawyer", "80k"):
        assert word not in journal.read_text()
    put_back(*as_snapshot_had)

    assert backups.replay(snapshot) == {"chats": 2, "message": 1}

    assert list(Conversation.objects.filter(owner=account).order_by("pk")) == [edited, kept]
    assert not Project.objects.exists()
    assert not Message.objects.filter(pk=withdrawn.pk).exists()
    assert Message.objects.filter(conversation=kept).count() == 2


@pytest.mark.django_db(transaction=True)
def test_a_chat_someone_else_made_with_a_reused_id_is_not_deleted(journal, account):
    chat = conversation_with(account, "Hello", "Hi")
    snapshot = timezone.now()
    erasures.record(
        erasures.CHATS,
        conversations=[[chat.pk, (chat.created_at - timedelta(hours=1)).isoformat()]],
        projects=[],
    )
    backups.replay(snapshot)
    assert Conversation.objects.filter(pk=chat.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_a_replay_ends_the_access_ended_after_the_backup_and_keeps_the_rest(
    journal, account, client
):
    """A logout, a log-out-everywhere and a password change made after the backup hold after
    the restore; a guest, who has no password to sign in with again, keeps its token."""
    journal.touch()
    guest = accounts_services.create_guest()
    kept_guest = tokens.issue_token(guest)
    phone, laptop = tokens.issue_token(account), tokens.issue_token(account)
    client.force_login(account)
    session = Session.objects.get()
    old_password = User.objects.get(pk=account.pk).password
    snapshot = timezone.now()
    as_snapshot_had = [copy.copy(row) for row in AuthToken.objects.all()]
    (phone_row,) = [row for row in AuthToken.objects.all() if phone.startswith(row.token_key)]
    accounts_services.log_out(token=phone_row)
    client.post(reverse("accounts:logout"))
    passwords.change_password(
        user=User.objects.get(pk=account.pk),
        old_password="a-long-passphrase-42",
        new_password="another-long-passphrase-7",
    )
    kinds = [entry["kind"] for entry in entries(journal)]
    assert kinds == ["token", "session", "tokens", "password"]
    assert session.session_key not in journal.read_text()
    # As a restore puts them back.
    made = {row.digest: row.created for row in as_snapshot_had}
    AuthToken.objects.bulk_create(as_snapshot_had, ignore_conflicts=True)
    for digest, created in made.items():  # as made then: bulk_create stamps them now
        AuthToken.objects.filter(digest=digest).update(created=created)
    session.save()
    User.objects.filter(pk=account.pk).update(password=old_password)

    done = backups.replay(snapshot)

    assert done == {"token": 1, "session": 1, "tokens": 1, "password": 1}
    assert list(AuthToken.objects.values_list("user_id", flat=True)) == [guest.pk]
    assert kept_guest and laptop
    assert not Session.objects.exists()
    assert not User.objects.get(pk=account.pk).has_usable_password()


@pytest.mark.django_db(transaction=True)
def test_an_odd_journal_line_is_skipped_and_the_replay_goes_on(journal, account):
    memory_services.add_line(owner_id=account.pk, text="Has a cat named Felix")
    snapshot = timezone.now()
    later = (snapshot + timedelta(seconds=1)).isoformat()
    odd = [
        {"at": later, "kind": "lines", "owner": named(account), "digests": 5},
        {"at": later, "kind": "lines", "owner": named(account), "digests": [[1], "f" * 65]},
        {"at": later, "kind": "chats", "projects": 5, "conversations": "x"},
        {"at": later, "kind": "account", "owner": [account.pk, "yesterday"]},
        {"at": "2026-01-01T00:00:00", "kind": "account", "owner": named(account)},
        {"at": later, "kind": "what", "owner": named(account)},
    ]
    good = {"at": later, "kind": "lines", "owner": named(account)}
    good["digests"] = [tombstones.digest("Has a cat named Felix")]
    odd += [{"at": later, "kind": "session", "session": {"k": 1}}]
    journal.write_bytes(
        b"".join(json.dumps(row).encode() + b"\n" for row in odd)
        + b"\xff\xfe not a line\n"
        + b"[" * 100_000
        + b"\n"
        + json.dumps(good).encode()
        + b"\n"
    )

    assert backups.replay(snapshot) == {"lines": 1}
    assert Memory.objects.get(owner=account).lines == []
    assert User.objects.filter(pk=account.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_an_entry_of_the_first_journal_names_only_someone_who_joined_before_it(journal):
    """The first journal named people by id alone: only someone already there then can be
    the one it means, never a newcomer given the same id since."""
    early, newcomer = make_account("early@example.com"), make_account("newcomer@example.com")
    User.objects.filter(pk=newcomer.pk).update(date_joined=timezone.now() + timedelta(hours=2))
    snapshot = timezone.now()
    at = (snapshot + timedelta(hours=1)).isoformat()
    journal.write_text(
        json.dumps({"at": at, "kind": "account", "owner": early.pk})
        + "\n"
        + json.dumps({"at": at, "kind": "account", "owner": newcomer.pk})
        + "\n"
    )
    assert backups.replay(snapshot) == {"account": 1}
    assert list(User.objects.values_list("pk", flat=True)) == [newcomer.pk]


@pytest.mark.django_db(transaction=True)
def test_a_forget_the_person_took_back_is_not_replayed(journal, account):
    """Undo of a forget, or "remember it again", lifts the tombstone after it: journaled, so
    the replay does not forget the line again."""
    memory_services.add_line(owner_id=account.pk, text="Has a dog named Rex")
    memory_services.add_line(owner_id=account.pk, text="Likes jazz")
    memory = Memory.objects.get(owner=account)
    snapshot = timezone.now()
    with transaction.atomic():
        tombstones.bury(memory_id=memory.pk, lines=["Has a dog named Rex", "Likes jazz"])
    tombstones.unbury(memory_id=memory.pk, lines=["Has a dog named Rex"])
    assert [entry["kind"] for entry in entries(journal)] == ["lines", "unbury"]

    backups.replay(snapshot)

    assert Memory.objects.get(owner=account).lines == ["Has a dog named Rex"]
    assert tombstones.is_buried("Likes jazz", tombstones.buried(memory.pk))
    assert not tombstones.is_buried("Has a dog named Rex", tombstones.buried(memory.pk))


def test_the_journal_forgets_entries_older_than_any_backup_kept(journal, settings):
    settings.ERASURE_JOURNAL_KEEP_DAYS = 42
    now = timezone.now()
    stamps = [now - timedelta(days=50), now - timedelta(days=41), now]
    journal.write_text(
        "".join(json.dumps({"at": at.isoformat(), "kind": "clear"}) + "\n" for at in stamps)
        + "not json\n"
    )
    assert backups.prune_journal() == 2  # the oldest, and a line no replay can read
    horizon, *rows = [json.loads(row) for row in journal.read_text().splitlines()]
    assert horizon["kind"] == "pruned"
    assert [row["at"] for row in rows] == [at.isoformat() for at in stamps[1:]]
    assert backups.prune_journal() == 0
    assert not list(journal.parent.glob("*.new"))
    # A replay from before what the journal still holds would miss erasures: refused.
    with pytest.raises(erasures.JournalTooShort):
        backups.replay(now - timedelta(days=45))
    with pytest.raises(CommandError, match="reaches back only to"):
        call_command("replay_erasures", "--since", (now - timedelta(days=45)).isoformat())


@pytest.mark.django_db(transaction=True)
def test_a_forget_lifted_after_the_key_was_rotated_is_not_replayed(journal, account, settings):
    settings.SECRET_KEY = "the-key-of-last-year"
    memory_services.add_line(owner_id=account.pk, text="Has a dog named Rex")
    memory = Memory.objects.get(owner=account)
    snapshot = timezone.now()
    with transaction.atomic():
        tombstones.bury(memory_id=memory.pk, lines=["Has a dog named Rex"])
    settings.SECRET_KEY, settings.TOMBSTONE_KEY_FALLBACKS = (
        "this-years-key",
        ["the-key-of-last-year"],
    )
    tombstones.unbury(memory_id=memory.pk, lines=["Has a dog named Rex"])

    backups.replay(snapshot)

    assert Memory.objects.get(owner=account).lines == ["Has a dog named Rex"]
    assert not tombstones.is_buried("Has a dog named Rex", tombstones.buried(memory.pk))


@pytest.mark.django_db(transaction=True)
def test_a_guest_idle_in_the_backup_is_not_deleted_by_the_restore(journal, settings):
    """The backup cannot tell whether the guest came back after it."""
    journal.touch()
    guest = accounts_services.create_guest()
    long_ago = timezone.now() - timedelta(days=settings.GUEST_IDLE_DAYS + 5)
    User.objects.filter(pk=guest.pk).update(last_seen_at=long_ago)
    backups.replay(timezone.now() - timedelta(days=1))
    assert User.objects.filter(pk=guest.pk).exists()
