"""``manage.py restore_snapshot PATH`` (``make restore SNAPSHOT=PATH``): a snapshot back, and
every erasure made since replayed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import backups
from core import erasures


class Command(BaseCommand):
    help = (
        "Make a snapshot of backup_database the embedded database, migrate it, and erase again "
        "what was erased after it (accounts, chats, clears, lines). Stop make run first."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("snapshot", type=Path)

    def handle(self, *args: Any, snapshot: Path, **options: Any) -> None:
        if not snapshot.is_file():
            raise CommandError(f"no such snapshot: {snapshot}")
        try:
            replayed = backups.restore(snapshot)
        except (backups.NotEmbedded, backups.NotASnapshot, backups.ProductRunning) as error:
            raise CommandError(str(error.detail)) from None
        except erasures.JournalTooShort as horizon:
            raise CommandError(
                f"the erasure journal reaches back only to {horizon}, after this snapshot: "
                "what was erased before then would come back. Choose a newer snapshot."
            ) from None
        self.stdout.write(f"restored {snapshot}; erasures replayed: {dict(replayed) or 'none'}")
