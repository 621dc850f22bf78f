"""Account tasks: housekeeping, finishing guest merges."""

from __future__ import annotations

from celery import Task, shared_task

from accounts import services, tokens


@shared_task(name="accounts.housekeeping", ignore_result=True)
def housekeeping() -> None:
    """Celery beat, hourly: delete idle guests with their memory; re-send unfinished merges;
    delete expired API tokens."""
    services.delete_idle_guests()
    services.resume_guest_merges()
    tokens.delete_expired_tokens()


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
