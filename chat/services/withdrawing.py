"""An edit: the last message and its reply withdrawn, and what memory learned from it taken back."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import DatabaseError, transaction
from django.db.models import F
from django.db.models.functions import Greatest, Least
from django.utils.translation import gettext_lazy as _

from chat import stops, titles
from chat.models import Conversation, Message
from chat.services.conversations import ConversationGone
from core import db, erasures
from core.db import retry_on_lock_conflict
from core.errors import Conflict, NotFound
from memory import facade
from memory.turns import TurnState

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Withdrawal:
    """The message an edit replaced, and ``memory_kept``: not all it taught could be taken back,
    so the person is told to look at their memory."""

    message_id: int
    memory_kept: bool = False


class MessageNotFound(NotFound):
    """No such message of the person's here (HTTP 404)."""


class NotLastMessage(Conflict):
    """Only the person's last message can be edited (HTTP 409)."""

    code = "not_last_message"
    detail = _("Only your last message can be edited.")


@dataclass(frozen=True)
class _Withdrawn:
    """The withdrawn message as memory knew it, read under the conversation's lock."""

    state: int
    changed: bool | None
    version_id: int | None
    said: facade.Said
    read_in_parts: bool = False


def withdraw_last_message(conversation: Conversation, message_id: int) -> Withdrawal:
    """Withdraw the last message and its reply, and what memory learned from it.

    Unread or pending, it is simply gone (a pass that read it meanwhile loses its CAS). Read
    with a change, the lines it brought are taken back, not those of other turns the same pass
    read (``memory.rollback.take_back``); what cannot be (pruned, overwritten) is reported as
    ``memory_kept``. A line it asked to forget stays forgotten."""
    withdrawn = _delete_last_exchange(conversation, message_id)
    stops.request_stop(conversation.pk)  # a reply still on its way is dropped
    if not withdrawn.changed:
        return Withdrawal(message_id)
    # A long message's earlier parts may have changed the list too; only the last part's
    # version is known, so some may stay: reported.
    in_parts = withdrawn.state != TurnState.READ or withdrawn.read_in_parts
    others = Message.objects.filter(
        memory_version_id=withdrawn.version_id, role=Message.Role.USER
    ).order_by("id")
    said_with_it = (
        [
            facade.Said(conversation=row["conversation_id"], text=row["content"])
            for row in others.values("conversation_id", "content")
        ]
        if withdrawn.version_id is not None
        else []
    )
    try:
        kept = facade.take_back(
            owner_id=conversation.owner_id,
            turn_id=message_id,
            version_id=withdrawn.version_id,
            said=withdrawn.said,
            others=said_with_it,
        )
    except DatabaseError:
        # The exchange is gone already; what memory learned is left to the person.
        log.warning("chat.take_back_failed conversation=%s", conversation.pk)
        kept = True
    kept = kept or in_parts
    return Withdrawal(message_id, memory_kept=kept)


@retry_on_lock_conflict
def _delete_last_exchange(conversation: Conversation, message_id: int) -> _Withdrawn:
    """Delete the message and its replies under the conversation's lock (which every message
    and reply takes first), so nothing lands in between."""
    with transaction.atomic():
        if not db.lock(Conversation.objects.filter(pk=conversation.pk)):
            raise ConversationGone
        rows = list(
            Message.objects.select_for_update()
            .filter(conversation_id=conversation.pk, id__gte=message_id)
            .order_by("id")
            .values(
                "id",
                "created_at",
                "role",
                "content",
                "memory_state",
                "memory_changed",
                "memory_version",
                "memory_read_to",
            )
        )
        if not rows or rows[0]["id"] != message_id or rows[0]["role"] != Message.Role.USER:
            raise MessageNotFound
        if any(row["role"] == Message.Role.USER for row in rows[1:]):
            raise NotLastMessage
        Message.objects.filter(pk__in=[row["id"] for row in rows]).delete()
        first = rows[0]
        erasures.record(
            erasures.MESSAGE,
            conversation=erasures.key(conversation.pk, conversation.created_at),
            message=erasures.key(first["id"], first["created_at"]),
        )
        # Withdrawn messages no longer count as turns (the sixth-turn trigger).
        counts: dict[str, Any] = {
            "turns": Greatest(F("turns") - len(rows), 0),
            "turns_at_reply": Least(F("turns_at_reply"), Greatest(F("turns") - len(rows), 0)),
        }
        # A title made from the withdrawn words goes; the next message names the chat.
        asked_before = Message.objects.filter(
            conversation_id=conversation.pk, role=Message.Role.USER, id__lt=message_id
        ).exists()
        if not asked_before and conversation.title == titles.title_for(first["content"]):
            counts["title"] = ""
            conversation.title = ""
        Conversation.objects.filter(pk=conversation.pk).update(**counts)
    return _Withdrawn(
        state=first["memory_state"],
        changed=first["memory_changed"],
        version_id=first["memory_version"],
        said=facade.Said(conversation=conversation.pk, text=first["content"]),
        read_in_parts=bool(first["memory_read_to"]),
    )
