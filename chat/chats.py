"""Managing one's chats: the list and its search, renaming, and the expiry of temporary chats.

Deletion is ``chat.services``': the turns go too, so memory never reads them.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from chat import services
from chat.models import Conversation, ConversationQuerySet
from core.people import Person
from memory.facade import clean_text

# The sidebar shows the newest chats; older ones are found by a search.
SIDEBAR_LIMIT = 50
TITLE_MAX_CHARS = 120
SEARCH_MAX_CHARS = 200
_EXPIRY_BATCH = 500


def listed(owner: Person | None, *, query: str = "") -> ConversationQuerySet:
    """The person's non-temporary chats, newest first; ``query`` searches titles and messages."""
    chats = Conversation.objects.for_owner(owner).listed()
    query = " ".join(clean_text(query).split())
    return chats.matching(query) if query else chats


def sidebar_list(owner: Person | None, *, query: str = "") -> list[Conversation]:
    """The newest ``SIDEBAR_LIMIT`` of ``listed`` with a message: a chat nothing was said in
    (a first message refused as too long, say) is no "New chat" left behind."""
    chats = listed(owner, query=query).said()
    return list(chats.only("pk", "title", "updated_at")[:SIDEBAR_LIMIT])


def clean_title(title: object) -> str:
    """A title as stored (one line, trimmed), or InvalidInput."""
    if not isinstance(title, str):
        raise services.InvalidInput("invalid_title", gettext("The title must be text."))
    text = " ".join(clean_text(title).split())
    if not text:
        raise services.InvalidInput("empty_title", gettext("Give the chat a title."))
    if len(text) > TITLE_MAX_CHARS:
        raise services.InvalidInput(
            "title_too_long",
            gettext("The title is too long (over %(limit)s characters).")
            % {"limit": TITLE_MAX_CHARS},
        )
    return text


def update_conversation(
    *, conversation: Conversation, title: object | None = None, model: str | None = None
) -> Conversation:
    """Rename a chat and/or switch its model, both checked first; a rename keeps its place."""
    if title is not None:
        title = clean_title(title)
    if model is not None:
        services.check_model(model)
    with transaction.atomic():
        if title is not None:
            if not Conversation.objects.filter(pk=conversation.pk).update(title=title):
                raise services.ConversationGone
            conversation.title = title
        if model is not None:
            services.switch_model(conversation=conversation, model=model)
    return conversation


def delete_expired_temporary_chats() -> int:
    """Delete temporary chats idle past ``TEMPORARY_CHAT_TTL_HOURS``, each judged again under
    its row's lock, so a message being stored keeps its chat."""
    cutoff = timezone.now() - timedelta(hours=settings.TEMPORARY_CHAT_TTL_HOURS)
    expired = Conversation.objects.filter(temporary=True, updated_at__lt=cutoff)
    deleted = 0
    while True:
        batch = list(expired.order_by("updated_at").values_list("pk", flat=True)[:_EXPIRY_BATCH])
        deleted_before = deleted
        for pk in batch:
            with transaction.atomic():
                conversation = expired.select_for_update().filter(pk=pk).first()
                if conversation is not None:
                    services.delete_conversation(conversation=conversation)
                    deleted += 1
        if deleted == deleted_before:  # nothing (more) expired
            return deleted
