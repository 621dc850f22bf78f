"""``manage.py backup_database``: the embedded database's daily and weekly snapshots."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from accounts import backups


class Command(BaseCommand):
    help = (
        "Take today's and this week's snapshot of the embedded SQLite database under "
        "BACKUP_DIR, if missing, and drop the oldest (make run does it hourly)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            taken = backups.take_snapshots()
        except backups.NotEmbedded as error:
            raise CommandError(str(error.detail)) from None
        for path in taken:
            self.stdout.write(f"snapshot {path}")
        if not taken:
            self.stdout.write("today's snapshots exist already")
