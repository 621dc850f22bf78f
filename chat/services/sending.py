"""Sending a message to a model: the request (memory rides along, SPEC §6), the reply stored
under the conversation's lock, and the memory pass it owes (enqueued after commit, so memory
never delays or blocks a reply)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import Case, Exists, F, IntegerField, Value, When
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import llm
from chat import context, stops, titles
from chat.models import Conversation, Message
from chat.services.conversations import ConversationGone, clean_message
from chat.services.withdrawing import Withdrawal, withdraw_last_message
from core.db import is_lock_conflict, retry_on_lock_conflict
from core.errors import Busy, Conflict, Unavailable
from memory import facade

log = logging.getLogger(__name__)


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


@dataclass
class Exchange:
    """One message and its reply; ``error`` is set (and ``assistant_message`` None) on failure.
    ``replaced``: the exchange an edit withdrew for this one."""

    user_message: Message
    assistant_message: Message | None = None
    error: str | None = None
    replaced: Withdrawal | None = None


def read_memory(conversation: Conversation) -> facade.MemoryRead:
    """What memory gives this conversation's next request: nothing at all for a temporary
    conversation (not even a read), else the owner's bounded, fail-open read."""
    if conversation.temporary:
        return facade.nothing_read()
    return facade.read_for_request(owner_id=conversation.owner_id)


def build_request(
    conversation: Conversation,
    memory: facade.MemoryRead | None = None,
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
    elif note := facade.memory_note(memory):  # no lines yet: how memory works, or that it is off
        system.append(note)
        room -= context.text_tokens(note)
    return [
        *({"role": "system", "content": text} for text in system),
        *context.history(conversation.pk, room, through=through),
    ]


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


def _user_state(conversation: Conversation, memory: facade.MemoryRead, locked: Locked) -> int:
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
    conversation: Conversation, text: str, *, memory: facade.MemoryRead
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
def store_reply(
    conversation: Conversation,
    user_message: Message,
    text: str,
    *,
    before: Locked,
    memory: facade.MemoryRead,
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
    content = facade.clean_text(text)
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
                and not facade.owe_pass_or_defer(
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
    if facade.asks_for_pass_now(text):
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
        reply = store_reply(conversation, user_message, answer.text, before=before, memory=memory)
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
    reply = Reply(conversation, user_message, before, memory, conversation.model)
    events = stream_events(reply, request, watch)
    return Exchange(user_message=user_message, replaced=replaced), events


@dataclass(frozen=True)
class Reply:
    """What storing a streamed reply needs: its question, the conversation as the question
    left it, the request's memory read, the model answering, whether it replaces the
    question's replies (a regenerate)."""

    conversation: Conversation
    question: Message
    before: Locked
    memory: facade.MemoryRead
    model: str
    replace: bool = False
    seen_up_to: int = 0  # a regenerate's: the newest reply there was when it started


def stream_events(
    reply: Reply, request: list[dict[str, str]], watch: stops.Watch
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
        stored = store_reply(
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
