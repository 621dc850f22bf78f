"""Chat's Celery tasks: thin, calling one service."""

from __future__ import annotations

from celery import shared_task

from chat import chats


@shared_task(name="chat.delete_expired_temporary_chats", ignore_result=True)
def delete_expired_temporary_chats() -> None:
    """Celery beat, every 15 minutes: temporary chats go ``TEMPORARY_CHAT_TTL_HOURS`` after their
    last message."""
    chats.delete_expired_temporary_chats()
