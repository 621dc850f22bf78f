"""History begins with each memory's list as it stands: one version of kind ``learned`` (saved
by earlier passes; what changed before is not known, so nothing to undo), dated by the
memory's last update. Its number is the memory's current version, so the history and the
list's ETag speak of the same versions."""

from django.db import migrations

BATCH = 1_000


def begin_history(apps, schema_editor):
    Memory = apps.get_model("memory", "Memory")
    MemoryVersion = apps.get_model("memory", "MemoryVersion")
    batch = []
    for memory in Memory.objects.only("pk", "version", "lines", "updated_at").iterator(BATCH):
        batch.append(
            MemoryVersion(
                memory_id=memory.pk,
                version=memory.version,
                kind="learned",
                lines=list(memory.lines),
                created_at=memory.updated_at,
            )
        )
        if len(batch) == BATCH:
            MemoryVersion.objects.bulk_create(batch)
            batch = []
    MemoryVersion.objects.bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [("memory", "0010_memory_history")]

    operations = [migrations.RunPython(begin_history, migrations.RunPython.noop)]
