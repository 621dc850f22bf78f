"""``manage.py resume_memory_passes``: after the embedded worker died, before it restarts."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from memory.queueing import resume_after_worker_loss


class Command(BaseCommand):
    help = (
        "Release the pass leases of a worker that died and send every owed pass again. "
        "Only when no worker is running (make run's launcher calls it before restarting its "
        "worker)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        sent = resume_after_worker_loss()
        self.stdout.write(f"{sent} owed memory pass(es) sent again")
