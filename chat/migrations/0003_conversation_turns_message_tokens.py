from django.db import migrations, models
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce


def count_turns(apps, schema_editor):
    """Existing conversations start from their real counts, so the memory trigger keeps its
    cadence across the upgrade."""
    Conversation = apps.get_model("chat", "Conversation")
    Message = apps.get_model("chat", "Message")
    last_reply = (
        Message.objects.filter(conversation_id=OuterRef("conversation_id"), role="assistant")
        .order_by("-id")
        .values("id")[:1]
    )
    counts = (
        Message.objects.filter(conversation_id=OuterRef("pk"))
        .values("conversation_id")
        .annotate(
            turns=Count("id"),
            at_reply=Count("id", filter=Q(id__lte=Subquery(last_reply))),
        )
    )
    Conversation.objects.update(
        turns=Coalesce(Subquery(counts.values("turns")), 0),
        turns_at_reply=Coalesce(Subquery(counts.values("at_reply")), 0),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0002_message_memory_state"),
    ]

    operations = [
        migrations.AddField(
            model_name="conversation",
            name="turns",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="conversation",
            name="turns_at_reply",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="message",
            name="tokens",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.RunPython(count_turns, migrations.RunPython.noop),
    ]
