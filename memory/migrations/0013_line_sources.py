"""Where every line came from: a source per line, beside the lines of each memory and of each
stored version. Today's lines were written by earlier passes, from conversations no longer
known: kind ``learned``, no conversation, learned and changed when the memory was last updated
(a version's lines when that version was made: the latest they can have been learned)."""

from django.db import migrations, models

BATCH = 1_000


def _sources(lines, at):
    when = at.isoformat()
    return [
        {"kind": "learned", "conversation": None, "learned_at": when, "changed_at": when}
        for _ in lines
    ]


def fill_sources(apps, schema_editor):
    Memory = apps.get_model("memory", "Memory")
    MemoryVersion = apps.get_model("memory", "MemoryVersion")
    for model, at in ((Memory, "updated_at"), (MemoryVersion, "created_at")):
        batch = []
        for row in model.objects.only("pk", "lines", at).iterator(BATCH):
            row.sources = _sources(row.lines, getattr(row, at))
            batch.append(row)
            if len(batch) == BATCH:
                model.objects.bulk_update(batch, ["sources"])
                batch = []
        model.objects.bulk_update(batch, ["sources"])


class Migration(migrations.Migration):
    dependencies = [("memory", "0012_forgotten_lines")]

    operations = [
        migrations.AddField(
            model_name="memory", name="sources", field=models.JSONField(default=list)
        ),
        migrations.AddField(
            model_name="memoryversion", name="sources", field=models.JSONField(default=list)
        ),
        migrations.RunPython(fill_sources, migrations.RunPython.noop),
    ]
