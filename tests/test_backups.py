"""Backups and restore (issue 30, point 4): the erasure journal holds ids and keyed hashes only,
and a restored snapshot never brings back an account, a clear, a line or a forget made after
it. The whole embedded cycle runs for real: SQLite, `manage.py` commands in their own process."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import transaction
from django.utils import timezone

from accounts import backups
from accounts import services as accounts_services
from accounts.models import User
from core import erasures
from memory import services as memory_services
from memory import tombstones
from memory.models import ForgottenLine, Memory, MemoryVersion
from tests.conftest import make_account

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def journal(settings, tmp_path) -> Path:
    settings.ERASURE_JOURNAL = str(tmp_path / "erasures.jsonl")
    return Path(settings.ERASURE_JOURNAL)


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
    erasures.record(erasures.ACCOUNT, owner=bob.pk)
    erasures.record(
        erasures.LINES, memory=memory.pk, digests=[tombstones.digest("has a cat named felix.")]
    )
    erasures.record(erasures.CLEAR, memory=carla_memory.pk)
    # Made before the snapshot: a restore keeps what the snapshot holds.
    journal.write_text(
        json.dumps(
            {
                "at": (snapshot - timedelta(hours=1)).isoformat(),
                "kind": "lines",
                "memory": memory.pk,
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
    assert backups.replay(snapshot) == done  # again: nothing changes
    assert Memory.objects.get(pk=memory.pk).lines == ["Lives in Turin", "Likes figs"]


# --- The embedded cycle, for real ---------------------------------------------------------------

EMBEDDED_DROPS = ("DATABASE_URL", "REDIS_URL", "DJANGO_SETTINGS_MODULE", "PRODUCTION", "TESTING")

STATE = """
import json
from accounts.models import User
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


def manage(data: Path, *args: str, code: str | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k not in EMBEDDED_DROPS}
    env["DATA_DIR"] = str(data)
    command = [sys.executable, "manage.py", *args]
    if code is not None:
        command += ["-c", code]
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )
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
from accounts import services as accounts
from memory import services
anna = User.objects.get(email="anna@example.com")
services.delete_line(owner_id=anna.pk, index=0, expected_version=None)
accounts.delete_account(user=User.objects.get(email="bob@example.com"))
services.add_line(owner_id=anna.pk, text="Likes figs")
""",
    )

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


def test_a_file_that_is_no_snapshot_is_refused(tmp_path):
    data = tmp_path / "var"
    data.mkdir()  # as `make run` makes it
    manage(data, "migrate", "--verbosity", "0")
    bogus = tmp_path / "bogus.sqlite3"
    bogus.write_bytes(b"not a database")
    env = {k: v for k, v in os.environ.items() if k not in EMBEDDED_DROPS}
    env["DATA_DIR"] = str(data)
    done = subprocess.run(
        [sys.executable, "manage.py", "restore_snapshot", str(bogus)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
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
    erasures.record(erasures.MERGE, owner=guest.pk, into=account.pk)
    erasures.record(erasures.ACCOUNT, owner=account.pk)
    erasures.record(erasures.MERGE, owner=newcomer.pk, into=account.pk + 1_000)

    backups.replay(snapshot)

    assert not User.objects.filter(pk__in=[guest.pk, account.pk, newcomer.pk]).exists()
    assert not Memory.objects.filter(owner_id__in=[guest.pk, account.pk]).exists()


@pytest.mark.django_db(transaction=True)
def test_a_guest_merge_is_journaled(journal, account):
    guest = accounts_services.create_guest()
    memory_services.add_line(owner_id=guest.pk, text="Likes figs")
    accounts_services.merge_guest(guest=guest, account=account)
    assert [(e["kind"], e["owner"], e["into"]) for e in entries(journal)] == [
        ("merge", guest.pk, account.pk)
    ]
