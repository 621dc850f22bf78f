"""Account tasks: housekeeping, finishing guest merges, mailing password-reset links."""

from __future__ import annotations

from celery import Task, shared_task
from django.db import connection

from accounts import backups, passwords, services, tokens


@shared_task(name="accounts.housekeeping", ignore_result=True)
def housekeeping() -> None:
    """Hourly: delete idle guests and expired tokens; resend unfinished merges; forget journal
    entries older than any backup kept."""
    services.delete_idle_guests()
    services.resume_guest_merges()
    tokens.delete_expired_tokens()
    backups.prune_journal()


@shared_task(name="accounts.backup_database", ignore_result=True)
def backup_database() -> None:
    """Hourly: the embedded database's daily and weekly snapshots, when missing."""
    if connection.vendor == "sqlite":
        backups.take_snapshots()


@shared_task(
    name=services.FINISH_GUEST_MERGE_TASK,
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=5,
    time_limit=300,
)
def finish_guest_merge(self: Task, guest_id: int, account_id: int) -> None:
    """Finish a guest's merge into an account that needed the memory model (over the cap)."""
    if not services.finish_guest_merge(guest_id=guest_id, account_id=account_id):
        raise self.retry(countdown=min(600, 15 * 2**self.request.retries))


@shared_task(
    name=passwords.SEND_RESET_TASK,
    bind=True,
    acks_late=True,
    ignore_result=True,
    max_retries=5,
    time_limit=120,
)
def send_password_reset(self: Task, account_id: int | None, language: str) -> None:
    """Mail a password-reset link to the account (None: the address had none; nothing to do)."""
    if not passwords.send_reset_mail(account_id=account_id, language=language):
        # Outside an except block: the mail error (which may name the address) is not chained.
        raise self.retry(exc=passwords.MailNotSent(), countdown=30 * 2**self.request.retries)
