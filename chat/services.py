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
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Case, Exists, F, IntegerField, Value, When
from django.db.models.functions import Greatest, Least
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import llm
from chat import context, stops, titles
from chat.models import Conversation, Message, Project, VoiceSession
from core import db
from core.db import is_lock_conflict, retry_on_lock_conflict
from core.errors import Busy, Conflict, Invalid, NotFound, Unavailable
from memory import queueing as memory_queueing
from memory import rollback
from memory import services as memory_services
from memory.rules import prompts, provenance
from memory.rules.lines import clean_text
from memory.rules.triggers import is_forget_request, is_remember_request
from memory.turns import TurnState

log = logging.getLogger(__name__)


class InvalidInput(Invalid):
    """Input the person can fix (HTTP 400); ``code`` is stable for API clients, the detail is
    for people (translated into the active language)."""


@dataclass(frozen=True)
class ModelOption:
    id: str
    label: str


@dataclass(frozen=True)
class Withdrawal:
    """The person's last message an edit replaced (with its reply), and whether what memory had
    learned from it stays (``memory_kept``: it could not all be taken back, so the person is
    told to look at their memory)."""

    message_id: int
    memory_kept: bool = False


@dataclass
class Exchange:
    """One message and its reply; ``error`` is set (and ``assistant_message`` None) on failure.
    ``replaced``: the exchange an edit withdrew for this one."""

    user_message: Message
    assistant_message: Message | None = None
    error: str | None = None
    replaced: Withdrawal | None = None


# The reply came but could not be stored: a race lost after its retries, or the database gone.
REPLY_NOT_STORED_TEXT = _("The reply couldn't be saved. Your message is saved; try again.")
WITHDRAWN_TEXT = _("Your message was edited meanwhile, so this reply was dropped.")
SUPERSEDED_TEXT = _("This message was answered again meanwhile, so this reply was dropped.")
ERROR_TEXT = {
    "withdrawn": WITHDRAWN_TEXT,
    "superseded": SUPERSEDED_TEXT,
    "not_found": _("Not found."),
    "timeout": _("The model took too long to answer. Your message is saved; try again."),
    "rate_limited": _("The model is busy right now. Your message is saved; try again shortly."),
    Busy.code: REPLY_NOT_STORED_TEXT,
    Unavailable.code: REPLY_NOT_STORED_TEXT,
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


@retry_on_lock_conflict
def delete_project(*, project: Project) -> None:
    """Delete a project with its conversations (they belong to it).

    The project is locked, then its conversations (``core.db``): no conversation is added to
    it meanwhile, and a message being stored in one of them lands first and goes with it, or
    finds the conversation gone (``delete_conversation`` says why)."""
    with transaction.atomic():
        db.lock(Project.objects.filter(pk=project.pk))
        db.lock(Conversation.objects.filter(project_id=project.pk))
        project.delete()


@retry_on_lock_conflict
def delete_conversation(*, conversation: Conversation) -> None:
    """Delete a conversation and its messages. Memory keeps what it already learned from it;
    the person can delete lines or clear memory for that.

    The conversation is locked first, as a message locks it before storing anything
    (``_lock_conversation``): a message on its way is stored before the deletion and goes
    with it, or finds the conversation gone (404). Without the lock, a message committed
    between the cascade's DELETE of the messages and that of the conversation broke the
    foreign key, and the deletion answered 500."""
    with transaction.atomic():
        db.lock(Conversation.objects.filter(pk=conversation.pk))
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


def read_memory(conversation: Conversation) -> memory_services.MemoryRead:
    """What memory gives this conversation's next request: nothing at all for a temporary
    conversation (not even a read), else the owner's bounded, fail-open read."""
    if conversation.temporary:
        return memory_services.MemoryRead(enabled=False, block=None)
    return memory_services.read_for_request(owner_id=conversation.owner_id)


def build_request(
    conversation: Conversation,
    memory: memory_services.MemoryRead | None = None,
    *,
    model: str | None = None,
    through: int | None = None,
) -> list[dict[str, str]]:
    """The messages sent to the chat model (``model``: the conversation's unless a regenerate
    names another), in a stable order for provider prompt caching: the fixed system prompt, the
    project's instructions, the memory, then as much of the history up to message ``through``
    (default: all) as the model's input budget leaves room for (the oldest turns go first)."""
    if memory is None:
        memory = read_memory(conversation)
    system = [settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME)]
    if conversation.project is not None and conversation.project.instructions:
        system.append(f"Instructions for this project:\n{conversation.project.instructions}")
    room = context.input_budget(model or conversation.model) - sum(
        context.text_tokens(t) for t in system
    )
    if memory.block:
        system.append(memory.block)
        room -= memory.tokens + context.PER_MESSAGE_TOKENS
    elif not memory.failed:
        # No lines yet: still say how memory works, or that it is off. (When the read failed
        # nothing is said: this turn will not be read, so "memory will be updated" would lie.)
        note = prompts.MEMORY_WRITING_NOTE if memory.enabled else prompts.MEMORY_OFF_NOTE
        system.append(note)
        room -= context.text_tokens(note)
    return [
        *({"role": "system", "content": text} for text in system),
        *context.history(conversation.pk, room, through=through),
    ]


class ConversationGone(NotFound):
    """The conversation was deleted (with its account, say) while a message was on its way."""


@dataclass(frozen=True)
class Locked:
    """The conversation row as a message's UPDATE left it (read under the lock it takes)."""

    owner_id: int
    turns: int
    turns_at_reply: int


_LOCK_FOR_MESSAGE = (
    "UPDATE chat_conversation SET updated_at = %s, turns = turns + 1,"
    " title = CASE WHEN title = '' THEN %s ELSE title END"
    " WHERE id = %s RETURNING owner_id, turns, turns_at_reply"
)
_LOCK_FOR_REPLY = (
    "UPDATE chat_conversation SET updated_at = %s, turns = turns + 1, turns_at_reply = turns + 1"
    " WHERE id = %s RETURNING owner_id, turns, turns_at_reply"
)


def _lock_conversation(conversation: Conversation, *, reply: bool, title: str = "") -> Locked:
    """Lock the conversation row for the caller's transaction and count the turn, in one
    ``UPDATE … RETURNING`` (one round trip), or ConversationGone.

    A chat message takes this lock before anything else it writes, like the guest merge and
    the account deletion do, so they wait for each other in one order and a message lands
    either before them or not at all. What it returns is read under the lock: the owner now (a
    guest may have signed up since the request began and its conversations moved to the
    account) and the turn counts the memory trigger is decided from, so the trigger needs no
    COUNT of the messages. Raw SQL because the ORM's ``update()`` returns no row (Django 5.2);
    PostgreSQL and SQLite (3.35+) both evaluate every SET against the row as it was.
    """
    now = timezone.now()
    stamp = connection.ops.adapt_datetimefield_value(now)  # as the ORM would store it
    if reply:
        sql, params = _LOCK_FOR_REPLY, [stamp, conversation.pk]
    else:
        sql, params = _LOCK_FOR_MESSAGE, [stamp, title, conversation.pk]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        raise ConversationGone
    locked = Locked(owner_id=row[0], turns=row[1], turns_at_reply=row[2])
    conversation.updated_at = now
    conversation.owner_id = locked.owner_id
    conversation.turns = locked.turns
    conversation.turns_at_reply = locked.turns_at_reply
    return locked


def _user_state(
    conversation: Conversation, memory: memory_services.MemoryRead, locked: Locked
) -> int:
    """Never read when said in a temporary chat, with memory off, or in a conversation that
    changed hands while the request was on its way (its guest signed up or logged in). When the
    request's memory read failed (its table locked, the database slow), whether memory was on
    is unknown: the turn is pending, decided later as memory was when it was said
    (``memory.turns.TurnState.PENDING``), so it is neither lost nor read with memory off."""
    changed_hands = memory.owner_id is not None and memory.owner_id != locked.owner_id
    if conversation.temporary or changed_hands:
        return Message.MemoryState.SKIPPED
    if memory.failed:
        return Message.MemoryState.PENDING
    if not memory.enabled:
        return Message.MemoryState.SKIPPED
    return Message.MemoryState.UNREAD


def _reply_state(user_message: Message) -> Any:
    """A reply starts in its question's state, as the question is now (a clear may have put it
    out of reach meanwhile; a pass may have read it already, as when a reply is regenerated:
    the exchange is read, the new reply only context for later turns), decided in the reply's
    own INSERT."""
    skipped, pending = Message.MemoryState.SKIPPED, Message.MemoryState.PENDING
    read = Message.MemoryState.READ
    question = Message.objects.filter(pk=user_message.pk)
    return Case(
        When(Exists(question.filter(memory_state=skipped)), then=Value(skipped)),
        When(Exists(question.filter(memory_state=pending)), then=Value(pending)),
        When(Exists(question.filter(memory_state=read)), then=Value(read)),
        default=Value(Message.MemoryState.UNREAD),
        output_field=IntegerField(),
    )


@retry_on_lock_conflict
def _store_user_message(
    conversation: Conversation, text: str, *, memory: memory_services.MemoryRead
) -> tuple[Message, Locked]:
    """Store the person's message. Said with memory off (or in a temporary chat), it is never
    read by memory, also not once memory is back on or the guest has become an account.
    ``memory`` is the request's own bounded read, of the owner the request began with, so a
    slow memory table never holds the message up (a failed read leaves the turn unread by
    memory: whether memory was on is unknown); a conversation that changed hands since (its
    guest signed up or logged in meanwhile) is treated as memory off, so what is said in that
    moment is never learned by either side."""
    title = titles.title_for(text)  # the first message names the chat (an empty one waits)
    tokens = context.message_tokens(text)  # counted before the conversation's lock is taken
    try:
        with transaction.atomic():
            locked = _lock_conversation(conversation, reply=False, title=title)
            message = Message.objects.create(
                conversation=conversation,
                role=Message.Role.USER,
                content=text,
                memory_state=_user_state(conversation, memory, locked),
                tokens=tokens,
            )
    except IntegrityError:
        raise ConversationGone from None  # SQLite checks the conversation only at commit
    if not conversation.title:
        conversation.title = title
    return message, locked


class Withdrawn(Conflict):
    """The question a reply was on its way to is gone: the person edited it away (or the
    conversation moved on without it). The reply is dropped."""

    code = "withdrawn"
    detail = WITHDRAWN_TEXT


class Superseded(Conflict):
    """The question was answered meanwhile (a regenerate's reply, or the reply it replaced), or
    a regenerate lost to a newer message: this reply is dropped (HTTP 409)."""

    code = "superseded"
    detail = SUPERSEDED_TEXT


@retry_on_lock_conflict  # mid-stream, a lost race must not lose the reply
def _store_reply(
    conversation: Conversation,
    user_message: Message,
    text: str,
    *,
    before: Locked,
    memory: memory_services.MemoryRead,
    model: str | None = None,
    stopped: bool = False,
    replace: bool = False,
    seen_up_to: int = 0,
) -> Message:
    """Store the reply and, in the same transaction, owe a memory pass if this reply calls for
    one (enqueued after commit): no reply without its trigger. When memory cannot be told now
    (its row locked, its table stalled: ``request_pass_or_defer`` waits a bounded moment), or
    could not be read, the exchange is pending and the sweeper owes the pass once memory
    answers: never a lost remember, never a reply held up or failed by memory.

    A question has one reply, decided under the conversation's lock: a question edited away
    meanwhile drops the reply (Withdrawn); one answered meanwhile drops it too (Superseded),
    unless this is a regenerate (``replace``), whose reply takes the place of the question's
    replies, as long as the question is still the person's last message."""
    content = clean_text(text)
    tokens = context.message_tokens(content)  # counted before the conversation's lock is taken
    try:
        with transaction.atomic():
            locked = _lock_conversation(conversation, reply=True)
            if not Message.objects.filter(pk=user_message.pk).exists():
                raise Withdrawn
            if replace:
                locked = _drop_replies(
                    conversation, user_message, locked, seen_up_to=seen_up_to, stopped=stopped
                )
            elif Message.objects.filter(reply_to=user_message).exists():
                raise Superseded
            reply = Message.objects.create(
                conversation=conversation,
                role=Message.Role.ASSISTANT,
                content=content,
                model=model or conversation.model,
                reply_to=user_message,
                stopped=stopped,
                memory_state=_reply_state(user_message),
                tokens=tokens,
            )
            # The owner read under the lock, not the one the request began with; the read of
            # the same owner said whether memory is on (this exchange was said with it off).
            same_owner = memory.owner_id == locked.owner_id
            wanted = memory.enabled or not same_owner
            # A pending exchange (the read failed) asks the sweeper, not the memory row.
            if (
                wanted
                and not memory.failed
                and _calls_for_pass(conversation, user_message, before=before, now=locked)
                and not memory_queueing.request_pass_or_defer(
                    owner_id=locked.owner_id, memory_id=memory.memory_id if same_owner else None
                )
            ):
                Message.objects.filter(
                    pk__in=(user_message.pk, reply.pk), memory_state=Message.MemoryState.UNREAD
                ).update(memory_state=Message.MemoryState.PENDING)
    except IntegrityError:
        raise ConversationGone from None
    return reply


def _drop_replies(
    conversation: Conversation,
    question: Message,
    locked: Locked,
    *,
    seen_up_to: int,
    stopped: bool,
) -> Locked:
    """A regenerate's reply replaces every reply of ``question`` (all the assistant's messages
    after it: it is the person's last message), which no longer count as turns; Superseded
    when the person has said something since, or when a later regenerate's reply is in already
    (a reply newer than the last one this regenerate saw, ``seen_up_to``: the newest wins; only
    a reply this one stopped on its way gives way, and a stopped regenerate gives way to any)."""
    later = Message.objects.filter(conversation_id=conversation.pk, id__gt=question.pk)
    if later.filter(role=Message.Role.USER).exists():
        raise Superseded
    newer = later.filter(role=Message.Role.ASSISTANT, id__gt=seen_up_to)
    if (newer if stopped else newer.filter(stopped=False)).exists():
        raise Superseded
    dropped, _ = later.filter(role=Message.Role.ASSISTANT).delete()
    if not dropped:
        return locked
    Conversation.objects.filter(pk=conversation.pk).update(
        turns=F("turns") - dropped, turns_at_reply=F("turns_at_reply") - dropped
    )
    conversation.turns = locked.turns - dropped
    conversation.turns_at_reply = locked.turns_at_reply - dropped
    return Locked(locked.owner_id, conversation.turns, conversation.turns_at_reply)


def _calls_for_pass(
    conversation: Conversation, user_message: Message, *, before: Locked, now: Locked
) -> bool:
    """A pass when the turn count crosses a multiple of six, or at once on a remember or forget
    request (SPEC §4). Temporary conversations never feed memory.

    "Crosses" is measured since the previous reply, not since this message: a message whose
    reply failed still counts as a turn, and the boundary it reached is not skipped. Both counts
    come from the conversation row, read under its lock: the previous reply's when this
    request's message was stored (a reply stored by another request in between only makes this
    one ask for a pass that may find nothing new, never skip a boundary), this reply's now.
    """
    if conversation.temporary:
        return False
    text = user_message.content
    if is_remember_request(text) or is_forget_request(text):
        return True
    every = settings.MEMORY_TURNS_PER_PASS
    return now.turns // every > before.turns_at_reply // every


def send_message(
    *, conversation: Conversation, content: object, replaces: int | None = None
) -> Exchange:
    """Store the person's message, ask the conversation's model, store the reply. With
    ``replaces`` (an edit), the person's last message and its reply are withdrawn first."""
    text = clean_message(content)
    replaced = withdraw_last_message(conversation, replaces) if replaces is not None else None
    memory = read_memory(conversation)  # after the withdrawal: what it took back is gone
    user_message, before = _store_user_message(conversation, text, memory=memory)
    try:
        answer = llm.complete(
            model=conversation.model,
            messages=build_request(conversation, memory),
            timeout=settings.CHAT_MODEL_TIMEOUT,
        )
    except llm.ModelError as error:
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        return Exchange(user_message=user_message, error=error.code, replaced=replaced)
    if not answer.text.strip():
        return Exchange(user_message=user_message, error="empty", replaced=replaced)
    try:
        reply = _store_reply(conversation, user_message, answer.text, before=before, memory=memory)
    except (Withdrawn, Superseded) as dropped:
        return Exchange(user_message=user_message, error=dropped.code, replaced=replaced)
    return Exchange(user_message=user_message, assistant_message=reply, replaced=replaced)


@dataclass(frozen=True)
class StreamEvent:
    kind: str  # "delta", "done" or "error"
    data: dict[str, object]


def stream_message(
    *, conversation: Conversation, content: object, replaces: int | None = None
) -> tuple[Exchange, Iterator[StreamEvent]]:
    """Like ``send_message``, but the reply arrives as events; validation errors raise before
    anything is stored, model errors arrive as an "error" event after the user message is kept.
    What needs the database before the reply is stored runs before the stream starts, so a
    failure there is answered as any request's (a 404, a 503), not inside a 200. The exchange
    returned holds the stored message (and the withdrawal of an edit), not yet the reply."""
    text = clean_message(content)
    replaced = withdraw_last_message(conversation, replaces) if replaces is not None else None
    memory = read_memory(conversation)
    user_message, before = _store_user_message(conversation, text, memory=memory)
    request = build_request(conversation, memory)
    watch = stops.Watch(conversation.pk)
    reply = _Reply(conversation, user_message, before, memory, conversation.model)
    events = _stream_events(reply, request, watch)
    return Exchange(user_message=user_message, replaced=replaced), events


@dataclass(frozen=True)
class _Reply:
    """What storing a streamed reply needs: its question, the conversation as the question
    left it, the request's memory read, the model answering, whether it replaces the
    question's replies (a regenerate)."""

    conversation: Conversation
    question: Message
    before: Locked
    memory: memory_services.MemoryRead
    model: str
    replace: bool = False
    seen_up_to: int = 0  # a regenerate's: the newest reply there was when it started


def _stream_events(
    reply: _Reply, request: list[dict[str, str]], watch: stops.Watch
) -> Iterator[StreamEvent]:
    conversation = reply.conversation
    parts: list[str] = []
    stopped = False
    deltas = llm.stream(model=reply.model, messages=request, timeout=settings.CHAT_MODEL_TIMEOUT)
    try:
        for delta in deltas:
            parts.append(delta)
            yield StreamEvent("delta", {"content": delta})
            if watch.stopped():
                stopped = True  # what arrived is the reply, marked as stopped
                break
    except llm.ModelError as error:
        # Nothing half-written is stored as a reply.
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        yield StreamEvent("error", {"code": error.code, "detail": error_text(error.code)})
        return
    finally:
        close = getattr(deltas, "close", None)
        if close is not None:
            close()  # a stopped reply asks the model for nothing more
    if not "".join(parts).strip():
        if stopped:  # stopped before a word came: nothing to keep
            yield StreamEvent("done", {"assistant_message_id": None, "stopped": True})
        else:
            yield StreamEvent("error", {"code": "empty", "detail": error_text("empty")})
        return
    try:
        stored = _store_reply(
            conversation,
            reply.question,
            "".join(parts),
            before=reply.before,
            memory=reply.memory,
            model=reply.model,
            stopped=stopped,
            replace=reply.replace,
            seen_up_to=reply.seen_up_to,
        )
    except (Withdrawn, Superseded) as dropped:
        yield StreamEvent("error", {"code": dropped.code, "detail": str(dropped.detail)})
        return
    except ConversationGone:
        yield StreamEvent("error", {"code": "not_found", "detail": gettext("Not found.")})
        return
    except DatabaseError as error:
        # The stream's 200 is long sent: a failure to store the reply can only be said as its
        # last event (a race lost after its retries, or the database gone), never as a 500.
        code = Busy.code if is_lock_conflict(error) else Unavailable.code
        log.warning("chat.reply_not_stored conversation=%s code=%s", conversation.pk, code)
        yield StreamEvent("error", {"code": code, "detail": error_text(code)})
        return
    done: dict[str, object] = {"assistant_message_id": stored.pk, "model": stored.model}
    if stopped:
        done["stopped"] = True
    yield StreamEvent("done", done)


# --- Stop, regenerate, edit ---------------------------------------------------------------------


def stop_replies(*, conversation: Conversation) -> None:
    """Stop the replies of the conversation streaming now: each keeps what had arrived, marked
    as stopped (``chat.stops``)."""
    stops.request_stop(conversation.pk)


class NothingToRegenerate(Conflict):
    """The conversation has no message of the person's to answer again (HTTP 409)."""

    code = "nothing_to_regenerate"
    detail = _("There is no message of yours to answer again.")


def _regeneration(conversation: Conversation, model: str | None) -> tuple[_Reply, list[dict]]:
    """The reply a regenerate makes and its request: the person's last message, answered again
    (by ``model``, else the conversation's) from the history up to it, with memory as it is
    now. Replies streaming meanwhile are stopped: the new reply takes their place."""
    chosen = check_model(model) if model else conversation.model
    question = conversation.messages.filter(role=Message.Role.USER).order_by("-id").first()
    if question is None:
        raise NothingToRegenerate
    seen_up_to = (
        conversation.messages.filter(role=Message.Role.ASSISTANT, id__gt=question.pk)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
        or question.pk
    )
    stops.request_stop(conversation.pk)
    memory = read_memory(conversation)
    # The counts as the question left them: a regenerate of an exchange whose reply failed
    # owes the pass that reply would have (a remember, a sixth turn).
    before = Locked(conversation.owner_id, conversation.turns, conversation.turns_at_reply)
    request = build_request(conversation, memory, model=chosen, through=question.pk)
    made = _Reply(
        conversation, question, before, memory, chosen, replace=True, seen_up_to=seen_up_to
    )
    return made, request


def regenerate(*, conversation: Conversation, model: str | None = None) -> Exchange:
    """Answer the person's last message again; the new reply replaces the old one. Memory is
    not touched: the person's message is the same turn, read (or not yet) exactly once."""
    reply, request = _regeneration(conversation, model)
    exchange = Exchange(user_message=reply.question)
    try:
        answer = llm.complete(
            model=reply.model, messages=request, timeout=settings.CHAT_MODEL_TIMEOUT
        )
    except llm.ModelError as error:
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        exchange.error = error.code
        return exchange
    if not answer.text.strip():
        exchange.error = "empty"
        return exchange
    try:
        exchange.assistant_message = _store_reply(
            conversation,
            reply.question,
            answer.text,
            before=reply.before,
            memory=reply.memory,
            model=reply.model,
            replace=True,
            seen_up_to=reply.seen_up_to,
        )
    except (Withdrawn, Superseded) as dropped:
        exchange.error = dropped.code
    return exchange


def stream_regenerate(
    *, conversation: Conversation, model: str | None = None
) -> tuple[Message, Iterator[StreamEvent]]:
    """``regenerate`` as events, like ``stream_message``."""
    reply, request = _regeneration(conversation, model)
    watch = stops.Watch(conversation.pk)  # after its own stop of the replies on their way
    return reply.question, _stream_events(reply, request, watch)


class MessageNotFound(NotFound):
    """No such message of the person's in this conversation (HTTP 404)."""


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
    said: provenance.Said
    read_in_parts: bool = False


def withdraw_last_message(conversation: Conversation, message_id: int) -> Withdrawal:
    """Withdraw the person's last message and its reply (an edit replaces them), and what
    memory learned from it: nothing the person withdrew is learned.

    Unread (or pending), it is simply gone: no pass reads it (a pass that read it meanwhile
    loses its compare-and-set on the turns and reads again without it). Read, and its pass
    changed the list, that change is taken back — the lines the message brought, not those of
    the other turns the same pass read (``memory.rollback.take_back``); whatever cannot be
    taken back (a version no longer kept, a change written over since) is said in
    ``memory_kept``. A line the message asked to forget stays forgotten."""
    withdrawn = _delete_last_exchange(conversation, message_id)
    stops.request_stop(conversation.pk)  # its reply, if one is still on its way, is dropped
    if not withdrawn.changed:
        return Withdrawal(message_id)
    # Read in parts (a long message), each part's pass may have changed the list; only the
    # latest part's version is known, so what the earlier parts taught may stay: said.
    in_parts = withdrawn.state != TurnState.READ or withdrawn.read_in_parts
    others = Message.objects.filter(
        memory_version_id=withdrawn.version_id, role=Message.Role.USER
    ).order_by("id")
    said_with_it = (
        [
            provenance.Said(conversation=row["conversation_id"], text=row["content"])
            for row in others.values("conversation_id", "content")
        ]
        if withdrawn.version_id is not None
        else []
    )
    try:
        kept = rollback.take_back(
            owner_id=conversation.owner_id,
            turn_id=message_id,
            version_id=withdrawn.version_id,
            said=withdrawn.said,
            others=said_with_it,
        )
    except DatabaseError:
        # The exchange is gone already; what memory learned from it is left for the person.
        log.warning("chat.take_back_failed conversation=%s", conversation.pk)
        kept = True
    kept = kept or in_parts
    return Withdrawal(message_id, memory_kept=kept)


@retry_on_lock_conflict
def _delete_last_exchange(conversation: Conversation, message_id: int) -> _Withdrawn:
    """Delete the message and what follows it (its replies), under the conversation's lock,
    which every message and reply takes first: nothing is stored in between."""
    with transaction.atomic():
        if not db.lock(Conversation.objects.filter(pk=conversation.pk)):
            raise ConversationGone
        rows = list(
            Message.objects.select_for_update()
            .filter(conversation_id=conversation.pk, id__gte=message_id)
            .order_by("id")
            .values(
                "id",
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
        # The withdrawn messages no longer count as turns (the sixth-turn pass counts them).
        counts: dict[str, Any] = {
            "turns": Greatest(F("turns") - len(rows), 0),
            "turns_at_reply": Least(F("turns_at_reply"), Greatest(F("turns") - len(rows), 0)),
        }
        # A title made from the withdrawn words goes with them: the next message names the chat.
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
        said=provenance.Said(conversation=conversation.pk, text=first["content"]),
        read_in_parts=bool(first["memory_read_to"]),
    )


# --- Voice ------------------------------------------------------------------------------------


class AlreadyEnded(Conflict):
    """The voice session was ended before (HTTP 409)."""

    code = "already_ended"
    detail = "This voice session has already ended."


def start_voice_session(*, owner_id: int, model: str | None = None) -> tuple[VoiceSession, str]:
    """A voice session and its prompt: the system prompt with the memory (SPEC §6)."""
    model = check_model(model or settings.DEFAULT_CHAT_MODEL)
    memory = memory_services.read_for_request(owner_id=owner_id)
    with memory_services.owner_still_there():
        session = VoiceSession.objects.create(
            owner_id=owner_id,
            model=model,
            # Said with memory off, or with no telling (the read failed): never read, as for a
            # chat turn (switching memory back on does not change that).
            memory_pass_done_at=None if memory.enabled and not memory.failed else timezone.now(),
        )
    parts = [settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME)]
    if memory.block:
        parts.append(memory.block)
    elif not memory.failed:
        parts.append(prompts.MEMORY_WRITING_NOTE if memory.enabled else prompts.MEMORY_OFF_NOTE)
    return session, "\n\n".join(parts)


class VoiceSessionGone(NotFound):
    """The voice session was deleted (with its owner) while its end was on its way (HTTP 404)."""


@retry_on_lock_conflict
def end_voice_session(*, session: VoiceSession, transcript: list[dict[str, str]]) -> None:
    """Store the transcript and owe exactly one voice pass; a second end raises AlreadyEnded,
    a session deleted meanwhile (its guest deleted itself, say) VoiceSessionGone.

    The owner's memory row is locked before the session, as by everyone who writes both (a
    pass, a clear, a guest merge and a deletion hold the memory, then touch voice sessions):
    an end racing its guest's deletion or signup waits for it or goes first, never deadlocks.
    Who the owner is, is checked under that lock: a guest's sessions move to the account when
    it signs up, and the end then counts for the account.
    """
    turns = [
        {"role": t["role"], "content": clean_text(t["content"])}
        for t in transcript
        if t["role"] in ("user", "assistant")
    ]
    for _attempt in range(3):  # a session changes owner at most once (its guest signs up)
        owner_id = _voice_owner(session.pk)
        memory_services.get_memory(owner_id=owner_id)  # made outside the lock, on first use
        with transaction.atomic():
            memory_id = memory_services.lock_memory(owner_id=owner_id)
            ended = VoiceSession.objects.filter(
                pk=session.pk, owner_id=owner_id, ended_at__isnull=True
            ).update(ended_at=timezone.now(), transcript=turns)
            if ended:
                memory_queueing.request_pass(owner_id=owner_id, memory_id=memory_id)
                return
        if _voice_owner(session.pk) == owner_id:
            raise AlreadyEnded
    raise Busy  # it kept changing hands: not this request's fault, and nothing was stored


def _voice_owner(session_id: int) -> int:
    """Who owns the voice session now, or VoiceSessionGone."""
    owner_id = VoiceSession.objects.filter(pk=session_id).values_list("owner_id", flat=True)
    found = owner_id.first()
    if found is None:
        raise VoiceSessionGone
    return found
