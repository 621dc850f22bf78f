"""What one chat request may carry: the model's input budget, and the history window under it.

A conversation grows without end; the request does not. The fixed system prompt, the project's
instructions and the memory block always go; the history fills what is left, newest first, so
the oldest turns are the ones dropped. Every message's tokens are counted once, when it is
stored (``Message.tokens``), so windowing a conversation of a thousand exchanges is one query
that sums them in the database, not a thousand tiktoken calls per request.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.db.models import F, Subquery, Sum, Value, Window
from django.db.models.functions import Coalesce, Length

import llm
from chat.models import Message
from memory import facade

# litellm's figure is the model's own tokenizer's; ours is o200k. Other tokenizers count the
# same text as up to a fifth more tokens, and a model whose window is shared with its answer
# needs room to answer: a fifth of the window stays free.
WINDOW_SHARE = 0.8
# What each message adds around its content in the chat format (role, separators).
PER_MESSAGE_TOKENS = 4


def input_budget(model: str) -> int:
    """The tokens one request to ``model`` may carry, all messages included."""
    known = llm.max_input_tokens(model)
    limit = settings.CHAT_INPUT_TOKENS_DEFAULT if known is None else int(known * WINDOW_SHARE)
    return min(limit, settings.CHAT_INPUT_TOKENS_MAX)


@functools.lru_cache(maxsize=256)
def text_tokens(text: str) -> int:
    """Tokens of a system message (the prompt, a project's instructions): the same few texts
    come back request after request, so each is counted once per process."""
    return facade.count_tokens(text) + PER_MESSAGE_TOKENS


def message_tokens(text: str) -> int:
    """Tokens of a message's content, stored with it (``Message.tokens``)."""
    return facade.count_tokens(text)


def history(conversation_id: int, room: int, *, through: int | None = None) -> list[dict[str, str]]:
    """The newest messages (up to message ``through``, when given) whose tokens fit in
    ``room``, oldest first.

    The newest message always goes, whole, even alone over the room: the person's words are
    never cut (a model that cannot take them says ``too_long``). A window that starts with a
    reply drops it, so the model reads a conversation that starts with the person.
    """
    # Messages stored before counting existed are estimated at one token per character, more
    # than o200k counts for ordinary text.
    cost = Coalesce("tokens", Length("content")) + Value(PER_MESSAGE_TOKENS)
    messages = Message.objects.filter(conversation_id=conversation_id)
    if through is not None:  # a regenerate answers its question again, without the old reply
        messages = messages.filter(id__lte=through)
    # The oldest message that fits, found from the counts alone (no text is read for the
    # turns that do not fit); then the window is one range of the (conversation, id) index.
    oldest = (
        messages.annotate(spent=Window(Sum(cost), order_by=F("id").desc()))
        .filter(spent__lte=max(room, 0))
        .order_by("id")
        .values("id")[:1]
    )
    rows = list(
        messages.filter(id__gte=Subquery(oldest)).order_by("id").values_list("role", "content")
    )
    if not rows:
        newest = messages.order_by("-id").values_list("role", "content")[:1]
        rows = list(newest)
    elif len(rows) > 1 and rows[0][0] == Message.Role.ASSISTANT:
        rows = rows[1:]
    return [{"role": role, "content": content} for role, content in rows]
