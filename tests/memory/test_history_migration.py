"""History begins with today's lines: the migration gives every memory its first version."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.memory.helpers import anna_and_bob, migrate

BEFORE = [("memory", "0010_memory_history")]
AFTER = [("memory", "0011_history_begins_with_todays_lines")]


@pytest.mark.django_db(transaction=True)
def test_every_memory_gets_a_learned_version_of_its_lines_dated_by_its_last_update():
    # Every app's latest: going back in memory also unapplies what depends on it (chat's).
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    apps = migrate(BEFORE)
    Memory = apps.get_model("memory", "Memory")
    anna, bob = anna_and_bob(apps)
    full = Memory.objects.create(owner=anna, lines=["Name is Anna", "Lives in Turin"], version=7)
    empty = Memory.objects.create(owner=bob, lines=[])
    try:
        apps = migrate(AFTER)
        MemoryVersion = apps.get_model("memory", "MemoryVersion")
        first = MemoryVersion.objects.get(memory_id=full.pk)
        assert (first.version, first.kind, first.lines) == (7, "learned", full.lines)
        assert first.created_at == full.updated_at
        assert (first.added, first.changed, first.removed) == ([], [], [])
        assert MemoryVersion.objects.get(memory_id=empty.pk).lines == []
    finally:
        migrate(latest)
