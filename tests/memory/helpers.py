"""Helpers for memory tests: owners with turns, and memory model answers."""

from __future__ import annotations

import json
from typing import Any

from chat.models import Conversation, Message
from memory.models import Memory
from memory.services import get_memory


def answer(*lines: str) -> str:
    return json.dumps({"lines": list(lines)})


def payload(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The data a memory model call carried (its last message is JSON)."""
    return json.loads(messages[-1]["content"])


def conversation_with(owner, *turns: str, temporary: bool = False) -> Conversation:
    """A conversation whose turns alternate user / assistant, starting with the person."""
    conversation = Conversation.objects.create(
        owner=owner, model="scripted/chat-a", temporary=temporary
    )
    for i, text in enumerate(turns):
        Message.objects.create(
            conversation=conversation, role="user" if i % 2 == 0 else "assistant", content=text
        )
    return conversation


def memory_with(owner, *lines: str, owed: bool = True) -> Memory:
    """A memory holding ``lines`` (bypassing passes) that owes a pass when ``owed``."""
    from django.utils import timezone

    from memory.budget import list_tokens

    memory = get_memory(owner_id=owner.pk)
    Memory.objects.filter(pk=memory.pk).update(
        lines=list(lines),
        tokens=list_tokens(list(lines)),
        pass_requested=owed,
        pass_requested_at=timezone.now() if owed else None,
    )
    memory.refresh_from_db()
    return memory
