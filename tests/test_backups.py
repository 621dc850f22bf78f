"""Backups and restore (issue 30, point 4): the erasure journal holds ids and keyed hashes only,
and a restored snapshot never brings back an account, a clear, a line or a forget made after
it. The whole embedded cycle runs for real: SQLite, `manage.py` commands in their own process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
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
def test_a_rolled_back_deletion_journals_nothing(journal, account):
    from django.db import transaction

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
    manage(data, "migrate", "--verbosity", "0")
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
    state = json.loads(manage(data, "shell", code=STATE).strip().splitlines()[-1])
    assert state["bob"] is False
    assert state["lines"] == ["Lives in Turin"]  # as the snapshot had it, less what was erased
    assert "Has a cat named Felix" not in state["versions"]
    journal = (data / "erasures.jsonl").read_text()
    assert "Felix" not in journal
    assert "bob@example.com" not in journal


def test_a_file_that_is_no_snapshot_is_refused(tmp_path):
    data = tmp_path / "var"
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
