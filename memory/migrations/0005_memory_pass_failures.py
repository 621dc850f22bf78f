from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("memory", "0004_turns_read_once"),
    ]

    operations = [
        migrations.AddField(
            model_name="memory",
            name="pass_failures",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
