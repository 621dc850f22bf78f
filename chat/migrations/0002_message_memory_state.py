from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("chat", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="message",
            name="memory_state",
            field=models.PositiveSmallIntegerField(
                choices=[(0, "Unread"), (1, "Read"), (2, "Skipped")], default=0
            ),
        ),
        migrations.AddIndex(
            model_name="message",
            index=models.Index(
                condition=models.Q(("memory_state", 0)),
                fields=["conversation", "id"],
                name="message_unread_by_memory",
            ),
        ),
    ]
