"""Projects and conversations: create, rename, switch model, delete; the message as stored."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext

from chat.models import Conversation, Project
from chat.services.offer import InvalidInput, check_model
from core import db, erasures
from core.db import retry_on_lock_conflict
from core.errors import NotFound
from memory import facade


class ConversationGone(NotFound):
    """The conversation was deleted while a message was on its way."""


def create_project(*, owner_id: int, name: str, instructions: str = "") -> Project:
    """A project; its instructions reach the model in its conversations (not memory)."""
    with facade.owner_still_there():
        return Project.objects.create(
            owner_id=owner_id,
            name=facade.clean_text(name).strip(),
            instructions=facade.clean_text(instructions),
        )


def update_project(
    *, project: Project, name: str | None = None, instructions: str | None = None
) -> Project:
    """Rename a project or change its instructions."""
    changed = ["updated_at"]  # only what was sent: a concurrent edit of the other field stays
    if name is not None:
        project.name = facade.clean_text(name).strip()
        changed.append("name")
    if instructions is not None:
        project.instructions = facade.clean_text(instructions)
        changed.append("instructions")
    project.save(update_fields=changed)
    return project


@retry_on_lock_conflict
def delete_project(*, project: Project) -> None:
    """Delete a project with its conversations, locked in ``core.db``'s order so a racing
    message lands first or finds its conversation gone."""
    with transaction.atomic():
        db.lock(Project.objects.filter(pk=project.pk))
        db.lock(Conversation.objects.filter(project_id=project.pk))
        chats = Conversation.objects.filter(project_id=project.pk)
        gone = [erasures.key(*row) for row in chats.values_list("pk", "created_at")]
        named = erasures.key(project.pk, project.created_at)  # before delete() unsets the id
        project.delete()
        # Kept apart from the database, so no backup restored later brings them back.
        erasures.record(erasures.CHATS, conversations=gone, projects=[named])


@retry_on_lock_conflict
def delete_conversation(*, conversation: Conversation) -> None:
    """Delete a conversation and its messages; memory keeps what it learned.

    Locked first, as a message locks it before storing: a message on its way lands before the
    deletion or gets a 404. Unlocked, one committed mid-cascade broke the foreign key (500)."""
    with transaction.atomic():
        db.lock(Conversation.objects.filter(pk=conversation.pk))
        named = erasures.key(conversation.pk, conversation.created_at)
        conversation.delete()
        erasures.record(erasures.CHATS, conversations=[named], projects=[])


def create_conversation(
    *,
    owner_id: int,
    model: str | None = None,
    project: Project | None = None,
    temporary: bool = False,
) -> Conversation:
    """A new conversation; a temporary one neither reads nor feeds memory."""
    model = check_model(model or settings.DEFAULT_CHAT_MODEL)
    with facade.owner_still_there():
        return Conversation.objects.create(
            owner_id=owner_id, model=model, project=project, temporary=temporary
        )


def switch_model(*, conversation: Conversation, model: str) -> Conversation:
    """Switch the model mid-conversation: the history (and memory) carry over."""
    conversation.model = check_model(model)
    conversation.save(update_fields=["model", "updated_at"])
    return conversation


def clean_message(content: object) -> str:
    """The person's message as stored, or InvalidInput."""
    if not isinstance(content, str):
        raise InvalidInput("invalid_message", gettext("The message must be text."))
    text = facade.clean_text(content)
    if not text.strip():
        raise InvalidInput("empty_message", gettext("Write a message first."))
    if len(text) > settings.MESSAGE_MAX_CHARS:
        raise InvalidInput(
            "message_too_long",
            gettext("The message is too long (over %(limit)s characters).")
            % {"limit": number_format(settings.MESSAGE_MAX_CHARS, force_grouping=True)},
        )
    return text
