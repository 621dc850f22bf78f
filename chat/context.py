"""What one chat request may carry: the model's input budget, and the history window under it.

System prompt, project instructions and memory always go; history fills the rest, newest
first. Each message's tokens are counted once when stored (``Message.tokens``), so windowing a
long conversation is one summing query, not a tiktoken call per message.
"""

from __future__ import annotations

import functools

from django.conf import settings
from django.db.models import F, Subquery, Sum, Value, Window
from django.db.models.functions import Coalesce, Length

import llm
from chat.models import Message
from memory import facade

# litellm's window is in the model's tokenizer, ours is o200k (other tokenizers count up to a
# fifth more), and the answer may share the window: a fifth stays free.
WINDOW_SHARE = 0.8
# What each message adds around its content (role, separators).
PER_MESSAGE_TOKENS = 4


def input_budget(model: str) -> int:
    """The tokens one request to ``model`` may carry, all messages included."""
    known = llm.max_input_tokens(model)
    limit = settings.CHAT_INPUT_TOKENS_DEFAULT if known is None else int(known * WINDOW_SHARE)
    return min(limit, settings.CHAT_INPUT_TOKENS_MAX)


@functools.lru_cache(maxsize=256)
def text_tokens(text: str) -> int:
    """Tokens of a system message, counted once per process (the same few texts recur)."""
    return facade.count_tokens(text) + PER_MESSAGE_TOKENS


def message_tokens(text: str) -> int:
    """Tokens of a message's content, stored with it (``Message.tokens``)."""
    return facade.count_tokens(text)


def history(conversation_id: int, room: int, *, through: int | None = None) -> list[dict[str, str]]:
    """The newest messages (up to ``through``) whose tokens fit ``room``, oldest first.

    The newest always goes whole, even over the room: the person's words are never cut (the
    model says ``too_long``). A leading reply is dropped, so the window starts with the person.
    """
    # Messages stored before counting are estimated at a token per character (an overcount).
    cost = Coalesce("tokens", Length("content")) + Value(PER_MESSAGE_TOKENS)
    messages = Message.objects.filter(conversation_id=conversation_id)
    if through is not None:  # a regenerate answers its question again, without the old reply
        messages = messages.filter(id__lte=through)
    # Find the oldest message that fits from counts alone, then read one index range.
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
