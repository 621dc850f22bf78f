"""Account housekeeping tasks."""

from __future__ import annotations

from celery import shared_task

from accounts import services


@shared_task(name="accounts.delete_idle_guests", ignore_result=True)
def delete_idle_guests() -> None:
    """Celery beat: delete guests idle longer than ``GUEST_IDLE_DAYS``, with their memory."""
    services.delete_idle_guests()
