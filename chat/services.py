"""Chat use-cases: conversations, projects, and sending a message to a model.

The memory block rides along with every request (SPEC §6) and memory is triggered only after the
reply is stored (``transaction.on_commit``), so memory never delays or blocks a reply.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Case, Count, Exists, F, IntegerField, Q, Subquery, Value, When
from django.http import Http404
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from chat import llm
from chat.models import Conversation, Message, Project, VoiceSession
from memory import prompts
from memory import services as memory_services
from memory.lines import clean_text
from memory.triggers import is_forget_request, is_remember_request

log = logging.getLogger(__name__)

TITLE_CHARS = 60


class InvalidInput(Exception):
    """Input the person can fix; ``code`` is stable for API clients, the message is for people
    (translated into the active language)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class ModelOption:
    id: str
    label: str


@dataclass
class Exchange:
    """One message and its reply; ``error`` is set (and ``assistant_message`` None) on failure."""

    user_message: Message
    assistant_message: Message | None = None
    error: str | None = None


ERROR_TEXT = {
    "timeout": _("The model took too long to answer. Your message is saved; try again."),
    "rate_limited": _("The model is busy right now. Your message is saved; try again shortly."),
}
DEFAULT_ERROR_TEXT = _("The model couldn't answer this time. Your message is saved; try again.")


def error_text(code: str) -> str:
    """What the person reads when the model failed, in the active language."""
    return str(ERROR_TEXT.get(code, DEFAULT_ERROR_TEXT))


# --- Models on offer --------------------------------------------------------------------------


def available_models() -> list[ModelOption]:
    """The chat models on offer (``CHAT_MODELS``), with their labels."""
    labels = settings.CHAT_MODEL_LABELS
    return [
        ModelOption(id=m, label=labels.get(m) or _default_label(m)) for m in settings.CHAT_MODELS
    ]


def _default_label(model: str) -> str:
    provider, _, name = model.partition("/")
    if provider == llm.OFFLINE_PROVIDER:
        return f"{name.replace('-', ' ').title()} (offline)"
    return name or model


def check_model(model: str) -> str:
    """``model`` if it is on offer, else InvalidInput."""
    if model not in settings.CHAT_MODELS:
        raise InvalidInput(
            "unknown_model", gettext("Unknown model. Pick one of the models on offer.")
        )
    return model


# --- Projects and conversations ---------------------------------------------------------------


def create_project(*, owner_id: int, name: str, instructions: str = "") -> Project:
    """A project; its instructions reach the model in its conversations (they are not memory)."""
    with memory_services.owner_still_there():
        return Project.objects.create(
            owner_id=owner_id, name=clean_text(name).strip(), instructions=clean_text(instructions)
        )


def update_project(
    *, project: Project, name: str | None = None, instructions: str | None = None
) -> Project:
    """Rename a project or change its instructions (cleaned like every stored text)."""
    changed = ["updated_at"]  # only what was sent: a concurrent edit of the other field stays
    if name is not None:
        project.name = clean_text(name).strip()
        changed.append("name")
    if instructions is not None:
        project.instructions = clean_text(instructions)
        changed.append("instructions")
    project.save(update_fields=changed)
    return project


def delete_project(*, project: Project) -> None:
    """Delete a project with its conversations (they belong to it)."""
    project.delete()


def delete_conversation(*, conversation: Conversation) -> None:
    """Delete a conversation and its messages. Memory keeps what it already learned from it;
    the person can delete lines or clear memory for that."""
    conversation.delete()


def create_conversation(
    *,
    owner_id: int,
    model: str | None = None,
    project: Project | None = None,
    temporary: bool = False,
) -> Conversation:
    """A new conversation on ``model`` (default: the first on offer); a temporary one neither
    reads nor feeds memory."""
    model = check_model(model or settings.DEFAULT_CHAT_MODEL)
    with memory_services.owner_still_there():
        return Conversation.objects.create(
            owner_id=owner_id, model=model, project=project, temporary=temporary
        )


def switch_model(*, conversation: Conversation, model: str) -> Conversation:
    """Switch the model mid-conversation: the history (and memory) carry over."""
    conversation.model = check_model(model)
    conversation.save(update_fields=["model", "updated_at"])
    return conversation


def clean_message(content: object) -> str:
    """The person's message as stored, or InvalidInput (nothing is stored then)."""
    if not isinstance(content, str):
        raise InvalidInput("invalid_message", gettext("The message must be text."))
    text = clean_text(content)
    if not text.strip():
        raise InvalidInput("empty_message", gettext("Write a message first."))
    if len(text) > settings.MESSAGE_MAX_CHARS:
        raise InvalidInput(
            "message_too_long",
            gettext("The message is too long (over %(limit)s characters).")
            % {"limit": number_format(settings.MESSAGE_MAX_CHARS, force_grouping=True)},
        )
    return text


# --- Sending ----------------------------------------------------------------------------------


def read_memory_for(conversation: Conversation) -> memory_services.MemoryRead:
    """The memory a message in this conversation reads (bounded, fails open); a temporary
    conversation reads none."""
    if conversation.temporary:
        return memory_services.MemoryRead(enabled=False, block=None)
    return memory_services.read_for_request(
        owner_id=conversation.owner_id, conversation_id=conversation.pk
    )


def build_request(
    conversation: Conversation, memory: memory_services.MemoryRead | None = None
) -> list[dict[str, str]]:
    """The messages sent to the chat model, in a stable order for provider prompt caching:
    the fixed system prompt, the project's instructions, the memory, then the history."""
    messages = [
        {
            "role": "system",
            "content": settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME),
        }
    ]
    if conversation.project_id and conversation.project.instructions:
        messages.append(
            {
                "role": "system",
                "content": f"Instructions for this project:\n{conversation.project.instructions}",
            }
        )
    if memory is None:
        memory = read_memory_for(conversation)
    if memory.block:
        messages.append({"role": "system", "content": memory.block})
    elif not memory.enabled:
        messages.append({"role": "system", "content": prompts.MEMORY_OFF_NOTE})
    history = conversation.messages.order_by("id").values("role", "content")
    messages.extend({"role": m["role"], "content": m["content"]} for m in history)
    return messages


class ConversationGone(Http404):
    """The conversation was deleted (with its account, say) while a message was on its way."""


def _touch_conversation(conversation: Conversation, **changes: object) -> None:
    """Lock the conversation row for the caller's transaction (an UPDATE, so no extra round
    trip), or ConversationGone. A chat message takes this lock before anything else it writes,
    like the guest merge and the account deletion do, so they wait for each other in one order
    and a message lands either before them or not at all."""
    now = timezone.now()
    if not Conversation.objects.filter(pk=conversation.pk).update(updated_at=now, **changes):
        raise ConversationGone
    conversation.updated_at = now


def _reply_state(user_message: Message) -> Any:
    """A reply starts in its question's state, as the question is now (a clear may have put it
    out of reach meanwhile), decided in the reply's own INSERT."""
    skipped = Message.MemoryState.SKIPPED
    question_skipped = Message.objects.filter(pk=user_message.pk, memory_state=skipped)
    return Case(
        When(Exists(question_skipped), then=Value(skipped)),
        default=Value(Message.MemoryState.UNREAD),
        output_field=IntegerField(),
    )


def _store_user_message(conversation: Conversation, text: str, *, memory_on: bool) -> Message:
    """Store the person's message. Said with memory off (or in a temporary chat), it is never
    read by memory, also not once memory is back on or the guest has become an account.
    ``memory_on`` comes from the request's own bounded memory read, so a slow memory table
    never holds the message up (a failed read counts as on: it fails open)."""
    title = text.strip().splitlines()[0][:TITLE_CHARS]
    try:
        with transaction.atomic():
            _touch_conversation(
                conversation,
                title=Case(When(title="", then=Value(title)), default=F("title")),
            )
            message = Message.objects.create(
                conversation=conversation,
                role=Message.Role.USER,
                content=text,
                memory_state=Message.MemoryState.UNREAD
                if memory_on
                else Message.MemoryState.SKIPPED,
            )
    except IntegrityError:
        raise ConversationGone from None  # SQLite checks the conversation only at commit
    if not conversation.title:
        conversation.title = title
    return message


def _store_reply(conversation: Conversation, user_message: Message, text: str) -> Message:
    """Store the reply and, in the same transaction, owe a memory pass if this reply calls for
    one (enqueued after commit): no reply without its trigger."""
    try:
        with transaction.atomic():
            _touch_conversation(conversation)
            reply = Message.objects.create(
                conversation=conversation,
                role=Message.Role.ASSISTANT,
                content=clean_text(text),
                model=conversation.model,
                memory_state=_reply_state(user_message),
            )
            if _calls_for_pass(conversation, user_message, reply):
                # The owner now, not when the request began: a guest may have signed up since
                # and its conversations moved to the account (the row lock keeps it so).
                owner_id = (
                    Conversation.objects.filter(pk=conversation.pk)
                    .values_list("owner_id", flat=True)
                    .get()
                )
                memory_services.request_pass(owner_id=owner_id)
    except IntegrityError:
        raise ConversationGone from None
    return reply


def _calls_for_pass(conversation: Conversation, user_message: Message, reply: Message) -> bool:
    """A pass when the turn count crosses a multiple of six, or at once on a remember or forget
    request (SPEC §4). Temporary conversations never feed memory.

    "Crosses" is measured since the previous reply, not since this message: a message whose
    reply failed still counts as a turn, and the boundary it reached is not skipped.
    """
    if conversation.temporary:
        return False
    text = user_message.content
    if is_remember_request(text) or is_forget_request(text):
        return True
    previous_reply = Message.objects.filter(
        conversation=conversation, role=Message.Role.ASSISTANT, id__lt=reply.pk
    ).order_by("-id")
    turns = conversation.messages.aggregate(
        now=Count("id"),
        before=Count("id", filter=Q(id__lte=Subquery(previous_reply.values("id")[:1]))),
    )
    every = settings.MEMORY_TURNS_PER_PASS
    return turns["now"] // every > turns["before"] // every


def send_message(*, conversation: Conversation, content: object) -> Exchange:
    """Store the person's message, ask the conversation's model, store the reply."""
    text = clean_message(content)
    memory = read_memory_for(conversation)
    user_message = _store_user_message(conversation, text, memory_on=memory.enabled)
    try:
        answer = llm.complete(
            model=conversation.model,
            messages=build_request(conversation, memory),
            timeout=settings.CHAT_MODEL_TIMEOUT,
        )
    except llm.ModelError as error:
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        return Exchange(user_message=user_message, error=error.code)
    if not answer.text.strip():
        return Exchange(user_message=user_message, error="empty")
    reply = _store_reply(conversation, user_message, answer.text)
    return Exchange(user_message=user_message, assistant_message=reply)


@dataclass(frozen=True)
class StreamEvent:
    kind: str  # "delta", "done" or "error"
    data: dict[str, object]


def stream_message(
    *, conversation: Conversation, content: object
) -> tuple[Message, Iterator[StreamEvent]]:
    """Like ``send_message``, but the reply arrives as events; validation errors raise before
    anything is stored, model errors arrive as an "error" event after the user message is kept."""
    text = clean_message(content)
    memory = read_memory_for(conversation)
    user_message = _store_user_message(conversation, text, memory_on=memory.enabled)
    return user_message, _stream_events(conversation, user_message, memory)


def _stream_events(
    conversation: Conversation, user_message: Message, memory: memory_services.MemoryRead
) -> Iterator[StreamEvent]:
    parts: list[str] = []
    try:
        for delta in llm.stream(
            model=conversation.model,
            messages=build_request(conversation, memory),
            timeout=settings.CHAT_MODEL_TIMEOUT,
        ):
            parts.append(delta)
            yield StreamEvent("delta", {"content": delta})
    except llm.ModelError as error:
        # Nothing half-written is stored as a reply.
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        yield StreamEvent("error", {"code": error.code, "detail": error_text(error.code)})
        return
    if not "".join(parts).strip():
        yield StreamEvent("error", {"code": "empty", "detail": error_text("empty")})
        return
    try:
        reply = _store_reply(conversation, user_message, "".join(parts))
    except ConversationGone:
        yield StreamEvent("error", {"code": "not_found", "detail": gettext("Not found.")})
        return
    yield StreamEvent("done", {"assistant_message_id": reply.pk, "model": reply.model})


# --- Voice ------------------------------------------------------------------------------------


class AlreadyEnded(Exception):
    """The voice session was ended before (HTTP 409)."""


def start_voice_session(*, owner_id: int, model: str | None = None) -> tuple[VoiceSession, str]:
    """A voice session and its prompt: the system prompt with the memory (SPEC §6)."""
    model = check_model(model or settings.DEFAULT_CHAT_MODEL)
    memory = memory_services.read_for_request(owner_id=owner_id)
    with memory_services.owner_still_there():
        session = VoiceSession.objects.create(
            owner_id=owner_id,
            model=model,
            # Said with memory off: never read (switching memory back on does not change that).
            memory_pass_done_at=None if memory.enabled else timezone.now(),
        )
    parts = [settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME)]
    if memory.block:
        parts.append(memory.block)
    elif not memory.enabled:
        parts.append(prompts.MEMORY_OFF_NOTE)
    return session, "\n\n".join(parts)


def end_voice_session(*, session: VoiceSession, transcript: list[dict[str, str]]) -> None:
    """Store the transcript and owe exactly one voice pass; a second end raises AlreadyEnded."""
    turns = [
        {"role": t["role"], "content": clean_text(t["content"])}
        for t in transcript
        if t["role"] in ("user", "assistant")
    ]
    with transaction.atomic():
        ended = VoiceSession.objects.filter(pk=session.pk, ended_at__isnull=True).update(
            ended_at=timezone.now(), transcript=turns
        )
        if not ended:
            raise AlreadyEnded
        # The owner now (the UPDATE holds the row): a guest's sessions move when it signs up.
        owner_id = VoiceSession.objects.filter(pk=session.pk).values_list("owner_id", flat=True)
        memory_services.request_pass(owner_id=owner_id.get())
