"""Every turn is read exactly once: the per-owner high-water marks become a state per message."""

from django.db import migrations, models
from django.db.models import Q

UNREAD, READ, SKIPPED = 0, 1, 2


def marks_to_states(apps, schema_editor):
    Memory = apps.get_model("memory", "Memory")
    Message = apps.get_model("chat", "Message")
    VoiceSession = apps.get_model("chat", "VoiceSession")
    Message.objects.filter(conversation__temporary=True).update(memory_state=SKIPPED)
    for memory in Memory.objects.all().iterator():
        owned = Message.objects.filter(conversation__owner_id=memory.owner_id, memory_state=UNREAD)
        floor = Q(id__lte=memory.reads_turns_from_id)
        if memory.reads_turns_after is not None:
            floor |= Q(created_at__lte=memory.reads_turns_after)
            VoiceSession.objects.filter(
                owner_id=memory.owner_id,
                created_at__lte=memory.reads_turns_after,
                memory_pass_done_at__isnull=True,
            ).update(memory_pass_done_at=memory.reads_turns_after)
        owned.filter(floor).update(memory_state=SKIPPED)
        owned.filter(id__lte=memory.turns_seen_until).update(memory_state=READ)
        Memory.objects.filter(pk=memory.pk).update(context_from_id=memory.reads_turns_from_id)


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0003_memory_reads_turns_from_id"),
        ("chat", "0002_message_memory_state"),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="context_from_id",
            field=models.BigIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="memory",
            name="switched_off_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="memory",
            name="switched_off_at_message_id",
            field=models.BigIntegerField(default=0),
        ),
        migrations.RunPython(marks_to_states, migrations.RunPython.noop),
        migrations.RemoveField(model_name="memory", name="reads_turns_after"),
        migrations.RemoveField(model_name="memory", name="reads_turns_from_id"),
        migrations.RemoveField(model_name="memory", name="turns_seen_until"),
    ]
