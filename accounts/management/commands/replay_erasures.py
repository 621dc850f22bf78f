"""``manage.py replay_erasures --since WHEN``: after restoring a PostgreSQL backup taken at
WHEN, erase again what was erased after it."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import backups
from core import erasures


class Command(BaseCommand):
    help = (
        "Replay the erasure journal (ERASURE_JOURNAL) from the moment a restored backup was "
        "taken: deleted accounts, chats and lines, clears and forgets stay gone; logouts and "
        "password changes hold."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--since",
            required=True,
            help="when the backup started (pg_dump's start), ISO 8601 with its offset",
        )

    def handle(self, *args: Any, since: str, **options: Any) -> None:
        try:
            moment = datetime.fromisoformat(since.replace("Z", "+00:00"))
        except ValueError:
            raise CommandError("--since must be a date and time, ISO 8601") from None
        if moment.tzinfo is None:
            raise CommandError("--since needs its offset (Z or +01:00): times are compared")
        try:
            replayed = backups.replay(moment)
        except erasures.NoJournal as missing:
            raise CommandError(
                f"no erasure journal at {missing}: check ERASURE_JOURNAL, then run this again"
            ) from None
        except erasures.JournalTooShort as horizon:
            raise CommandError(
                f"the erasure journal reaches back only to {horizon}: erasures made before "
                "then are unknown. Restore a newer backup, or keep the journal longer "
                "(ERASURE_JOURNAL_KEEP_DAYS)."
            ) from None
        self.stdout.write(f"erasures replayed: {dict(replayed) or 'none'}")
