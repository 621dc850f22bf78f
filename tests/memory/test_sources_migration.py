"""Sources begin with today's lines: learned, from no known conversation, dated by the last
update of the memory (and of each version, when it was made)."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.memory.helpers import anna_and_bob, migrate

BEFORE = [("memory", "0012_forgotten_lines")]
AFTER = [("memory", "0013_line_sources")]


def learned(at, count):
    when = at.isoformat()
    return [
        {"kind": "learned", "conversation": None, "learned_at": when, "changed_at": when}
    ] * count


@pytest.mark.django_db(transaction=True)
def test_todays_lines_and_versions_are_learned_dated_by_their_last_update():
    # Every app's latest: going back unapplies the chat migrations that depend on memory's.
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    apps = migrate(BEFORE)
    Memory = apps.get_model("memory", "Memory")
    MemoryVersion = apps.get_model("memory", "MemoryVersion")
    anna, bob = anna_and_bob(apps)
    full = Memory.objects.create(owner=anna, lines=["Name is Anna", "Lives in Turin"], version=7)
    old = MemoryVersion.objects.create(memory=full, version=6, kind="pass", lines=["Name is Anna"])
    empty = Memory.objects.create(owner=bob, lines=[])
    try:
        apps = migrate(AFTER)
        Memory = apps.get_model("memory", "Memory")
        MemoryVersion = apps.get_model("memory", "MemoryVersion")
        assert Memory.objects.get(pk=full.pk).sources == learned(full.updated_at, 2)
        assert Memory.objects.get(pk=empty.pk).sources == []
        assert MemoryVersion.objects.get(pk=old.pk).sources == learned(old.created_at, 1)
    finally:
        migrate(latest)
