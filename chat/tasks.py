"""Chat's Celery tasks: thin, calling one service."""

from __future__ import annotations

from celery import shared_task

from chat import chats


@shared_task(name="chat.delete_expired_temporary_chats", ignore_result=True)
def delete_expired_temporary_chats() -> None:
    """Every 15 minutes: delete temporary chats past ``TEMPORARY_CHAT_TTL_HOURS``."""
    chats.delete_expired_temporary_chats()
