"""Sending a message: the request (memory rides along, SPEC §6), the reply stored under the
conversation's lock, and the pass it owes, enqueued after commit so memory never delays a reply."""

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


# The reply came but could not be stored: a lost race after retries, or the database gone.
REPLY_NOT_STORED_TEXT = _("The reply couldn't be saved. Your message is saved; try again.")


WITHDRAWN_TEXT = _("Your message was edited meanwhile, so this reply was dropped.")


SUPERSEDED_TEXT = _("This message was answered again meanwhile, so this reply was dropped.")


MODEL_FAILED_TEXT = _("The model couldn't answer. Try again or pick another model.")


ERROR_TEXT = {
    "withdrawn": WITHDRAWN_TEXT,
    "superseded": SUPERSEDED_TEXT,
    "not_found": _("Not found."),
    "model_timeout": _("The model took too long to answer. Try again or pick another model."),
    "model_rate_limited": _(
        "The model is busy right now. Try again shortly or pick another model."
    ),
    "too_long": _("This chat is too long for the model. Start a new chat or pick another model."),
    # A resume found no reply stored and none being written.
    "no_reply": _("No reply was stored for this message. Regenerate it or send it again."),
    # Ours, not the model's: the reply came and could not be stored.
    Busy.code: REPLY_NOT_STORED_TEXT,
    Unavailable.code: REPLY_NOT_STORED_TEXT,
}


# The provider's failure as the chat says it: the model's fault, never the storage's words.
MODEL_CODES = {
    "timeout": "model_timeout",
    "unavailable": "model_unavailable",
    "rate_limited": "model_rate_limited",
    "too_long": "too_long",
}


def model_failure(error: llm.ModelError) -> str:
    """The chat's code for a model that did not answer: ``model_*``, or ``too_long``."""
    if error.kind == "timeout":  # litellm's own Timeout is "unavailable" to passes
        return "model_timeout"
    return MODEL_CODES.get(error.code, "model_error")


def error_text(code: str) -> str:
    """What the person reads when a reply is missing, in the active language."""
    return str(ERROR_TEXT.get(code, MODEL_FAILED_TEXT))


@dataclass
class Exchange:
    """One message and its reply; on failure ``error`` is set and ``assistant_message`` None.
    ``replaced``: the exchange an edit withdrew for this one."""

    user_message: Message
    assistant_message: Message | None = None
    error: str | None = None
    replaced: Withdrawal | None = None


def read_memory(conversation: Conversation) -> facade.MemoryRead:
    """Memory for the next request: none for a temporary chat, else the bounded fail-open read."""
    if conversation.temporary:
        return facade.nothing_read()
    return facade.read_for_request(owner_id=conversation.owner_id)


def build_request(
    conversation: Conversation,
    memory: facade.MemoryRead | None = None,
    *,
    model: str | None = None,
    through: int | None = None,
) -> list[dict[str, Any]]:
    """The messages for the chat model, in a stable order for prompt caching: system prompt,
    project instructions, memory (marked as the cacheable prefix where the provider takes a
    mark), then as much history up to ``through`` as the budget and ``CHAT_HISTORY_TOKENS``
    allow (oldest dropped first). ``model``: the conversation's unless a regenerate names
    another."""
    model = model or conversation.model
    if memory is None:
        memory = read_memory(conversation)
    system = [settings.CHAT_SYSTEM_PROMPT.format(assistant=settings.ASSISTANT_NAME)]
    if conversation.project is not None and conversation.project.instructions:
        system.append(f"Instructions for this project:\n{conversation.project.instructions}")
    room = context.input_budget(model) - sum(context.text_tokens(t) for t in system)
    if memory.block:
        system.append(memory.block)
        room -= memory.tokens + context.PER_MESSAGE_TOKENS
    elif note := facade.memory_note(memory):  # no lines yet: how memory works, or that it is off
        system.append(note)
        room -= context.text_tokens(note)
    room = min(room, settings.CHAT_HISTORY_TOKENS)
    return llm.cache_prefix(
        model,
        [
            *({"role": "system", "content": text} for text in system),
            *context.history(conversation.pk, room, through=through),
        ],
    )


@dataclass(frozen=True)
class Locked:
    """The conversation row as a message's UPDATE left it, read under its lock."""

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
    """Lock the conversation row and count the turn in one ``UPDATE … RETURNING``, or
    ConversationGone.

    A message takes this lock first, as the guest merge and account deletion do, so they wait
    in one order and a message lands wholly before them or not at all. The returned owner and
    turn counts are read under the lock (a guest may have signed up meanwhile), so the trigger
    needs no COUNT. Raw SQL: Django 5.2's ``update()`` returns no row; PostgreSQL and SQLite
    3.35+ both evaluate every SET against the old row.
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
    """A turn's memory state. Never read in a temporary chat, with memory off, or in a
    conversation that changed hands mid-request. A failed memory read makes it PENDING,
    decided later as memory was when it was said."""
    changed_hands = memory.owner_id is not None and memory.owner_id != locked.owner_id
    if conversation.temporary or changed_hands:
        return Message.MemoryState.SKIPPED
    if memory.failed:
        return Message.MemoryState.PENDING
    if not memory.enabled:
        return Message.MemoryState.SKIPPED
    return Message.MemoryState.UNREAD


def _reply_state(user_message: Message) -> Any:
    """A reply starts in its question's current state (a clear may have put it out of reach;
    a regenerate's question may be read already), decided in the reply's own INSERT."""
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
    """Store the person's message. Said with memory off or in a temporary chat, it is never
    read, even after memory is back on or the guest becomes an account. ``memory`` is the
    request's bounded read, so a slow memory table never holds the message up; a conversation
    that changed hands meanwhile counts as memory off, so neither side learns it."""
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
    """The reply's question was edited away: the reply is dropped."""

    code = "withdrawn"
    detail = WITHDRAWN_TEXT


class Superseded(Conflict):
    """The question was answered meanwhile, or a regenerate lost to a newer message (HTTP 409)."""

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
    """Store the reply and, in the same transaction, owe a pass if it calls for one.

    When memory cannot be told now (row locked, table stalled: ``request_pass_or_defer`` waits
    a bounded moment) or could not be read, the exchange is pending and the sweeper owes the
    pass later: never a lost remember, never a reply held up by memory.

    One reply per question, decided under the conversation's lock: an edited-away question
    raises Withdrawn, an answered one Superseded, unless this is a regenerate (``replace``)
    and the question is still the person's last message."""
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
            # The owner as read under the lock; the request's read of that owner says whether
            # memory is on.
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
    """Drop the question's replies for a regenerate's. Superseded when the person has said
    something since, or a newer regenerate's reply is in (newer than ``seen_up_to``: the
    newest wins; only a reply this one stopped gives way, and a stopped regenerate yields)."""
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
    """A pass when the turn count crosses a multiple of six, or at once on a remember or
    forget request (SPEC §4). Temporary conversations never feed memory.

    "Crosses" is since the previous reply, so a failed reply's turn still counts and no
    boundary is skipped. Both counts come from the locked conversation row; a reply stored in
    between can only cause a pass that finds nothing, never a skipped boundary.
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
    """Store the message, ask the model, store the reply. ``replaces`` (an edit) withdraws the
    person's last message and its reply first."""
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
        return Exchange(user_message=user_message, error=model_failure(error), replaced=replaced)
    if not answer.text.strip():
        return Exchange(user_message=user_message, error="empty", replaced=replaced)
    try:
        reply = store_reply(conversation, user_message, answer.text, before=before, memory=memory)
    except (Withdrawn, Superseded) as dropped:
        return Exchange(user_message=user_message, error=dropped.code, replaced=replaced)
    return Exchange(user_message=user_message, assistant_message=reply, replaced=replaced)


@dataclass(frozen=True)
class StreamEvent:
    kind: str  # "delta", "done", "error", or "keepalive" (no data: the model is silent)
    data: dict[str, object]


def stream_message(
    *, conversation: Conversation, content: object, replaces: int | None = None
) -> tuple[Exchange, Iterator[StreamEvent]]:
    """Like ``send_message``, with the reply as events. Validation and database errors raise
    before the stream starts (a 404, a 503, not inside a 200); model errors arrive as an
    "error" event. The exchange returned holds the stored message, not yet the reply."""
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
    """What storing a streamed reply needs: question, locked conversation, memory read, model,
    and whether it replaces the question's replies (a regenerate)."""

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
    deltas = llm.stream(
        model=reply.model,
        messages=request,
        timeout=settings.CHAT_MODEL_TIMEOUT,
        idle_every=settings.CHAT_KEEP_ALIVE_SECONDS,
    )
    try:
        for delta in deltas:
            if delta:
                parts.append(delta)
                yield StreamEvent("delta", {"content": delta})
            else:  # the model is silent: a comment keeps the connection, and a stop is seen
                yield StreamEvent("keepalive", {})
            if watch.stopped():
                stopped = True  # what arrived is the reply, marked as stopped
                break
    except llm.ModelError as error:
        # Nothing half-written is stored as a reply.
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        code = model_failure(error)
        yield StreamEvent("error", {"code": code, "detail": error_text(code)})
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
        # The 200 is long sent: a failure to store can only be the last event, never a 500.
        code = Busy.code if is_lock_conflict(error) else Unavailable.code
        log.warning("chat.reply_not_stored conversation=%s code=%s", conversation.pk, code)
        yield StreamEvent("error", {"code": code, "detail": error_text(code)})
        return
    done: dict[str, object] = {"assistant_message_id": stored.pk, "model": stored.model}
    if stopped:
        done["stopped"] = True
    yield StreamEvent("done", done)
