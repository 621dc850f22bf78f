"""Stop and regenerate: a stopped reply keeps what arrived; a regenerate replaces the old reply
once the new one is stored."""

from __future__ import annotations

import logging
from collections.abc import Iterator

from django.conf import settings
from django.utils.translation import gettext_lazy as _

import llm
from chat import stops
from chat.models import Conversation, Message
from chat.services.offer import check_model
from chat.services.sending import (
    Exchange,
    Locked,
    Reply,
    StreamEvent,
    Superseded,
    Withdrawn,
    build_request,
    model_failure,
    read_memory,
    store_reply,
    stream_events,
)
from core.errors import Conflict

log = logging.getLogger(__name__)


def stop_replies(*, conversation: Conversation) -> None:
    """Stop the conversation's streaming replies; each keeps what arrived (``chat.stops``)."""
    stops.request_stop(conversation.pk)


class NothingToRegenerate(Conflict):
    """The conversation has no message of the person's to answer again (HTTP 409)."""

    code = "nothing_to_regenerate"
    detail = _("There is no message of yours to answer again.")


def _regeneration(conversation: Conversation, model: str | None) -> tuple[Reply, list[dict]]:
    """The reply and request answering the person's last message again; stops those streaming."""
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
    # The counts as the question left them: a regenerate owes the pass a failed reply would have.
    before = Locked(conversation.owner_id, conversation.turns, conversation.turns_at_reply)
    request = build_request(conversation, memory, model=chosen, through=question.pk)
    made = Reply(
        conversation, question, before, memory, chosen, replace=True, seen_up_to=seen_up_to
    )
    return made, request


def regenerate(*, conversation: Conversation, model: str | None = None) -> Exchange:
    """Answer the person's last message again; memory reads that turn once all the same."""
    reply, request = _regeneration(conversation, model)
    exchange = Exchange(user_message=reply.question)
    try:
        answer = llm.complete(
            model=reply.model, messages=request, timeout=settings.CHAT_MODEL_TIMEOUT
        )
    except llm.ModelError as error:
        log.warning("chat.model_failed conversation=%s code=%s", conversation.pk, error.code)
        exchange.error = model_failure(error)
        return exchange
    if not answer.text.strip():
        exchange.error = "empty"
        return exchange
    try:
        exchange.assistant_message = store_reply(
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
    return reply.question, stream_events(reply, request, watch)
