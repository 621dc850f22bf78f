"""The offline chat model: a deterministic responder answering in the message's language.

It recalls the memory block, greets by name, acknowledges remember requests honestly, and
otherwise says it is the offline model, so the product runs without an API key.
"""

from __future__ import annotations

import re
from typing import Any, Final

from chat.offline.replies import TEXTS as _TEXTS
from chat.offline.replies import detect_language, plain
from memory import facade

# Served as "offline/whizi-chat" and any other offline name (registered by the chat app).
MODEL_NAME: Final = "whizi-chat"

# The memory block's first line and the memory-off note, read from ``memory.facade``.
MEMORY_HEADER: Final = facade.MEMORY_HEADER
MEMORY_OFF_NOTE: Final = facade.MEMORY_OFF_NOTE
ASSISTANT_NAME: Final = "Whizi"
EXCERPT_CHARS: Final = 200

_GREETING_RES: Final = {
    "en": re.compile(r"^(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening))\b", re.I),
    "it": re.compile(r"^(?:ciao|salve|buongiorno|buonasera|buon pomeriggio)\b", re.I),
    "fr": re.compile(r"^(?:bonjour|bonsoir|salut|coucou)\b", re.I),
    "es": re.compile(r"^(?:hola|buenos días|buenas tardes|buenas noches|buenas)\b", re.I),
    "de": re.compile(r"^(?:hallo|guten (?:morgen|tag|abend)|servus|moin|grüß gott)\b", re.I),
    "pt": re.compile(r"^(?:olá|oi|bom dia|boa tarde|boa noite)\b", re.I),
}
# A longer greeting is followed by a real message.
_GREETING_MAX_WORDS: Final = 6
# The name line as the offline memory model writes it, in the person's language.
_NAME_LINE_RE: Final = re.compile(
    r"^(?:name(?: is|:)|si chiama|s'appelle|se llama|heißt|chama-se)\s*(.+?)\.?$", re.IGNORECASE
)


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return "".join(part for part in parts if isinstance(part, str))
    return ""


def memory_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The "- " facts under MEMORY_HEADER, up to the first blank line (the footer is no fact)."""
    for message in messages:
        if not isinstance(message, dict) or message.get("role") != "system":
            continue
        rows = _text(message.get("content")).splitlines()
        if not rows or rows[0].strip() != MEMORY_HEADER:
            continue
        lines: list[str] = []
        for row in rows[1:]:
            if not row.strip():
                if lines:
                    break
                continue
            if row.startswith("- ") and row[2:].strip():
                lines.append(row[2:].strip())
        return lines
    return []


def memory_is_off(messages: list[dict[str, Any]]) -> bool:
    """Whether the product sent the MEMORY_OFF_NOTE."""
    return any(
        isinstance(message, dict)
        and message.get("role") == "system"
        and _text(message.get("content")).strip() == MEMORY_OFF_NOTE
        for message in messages
    )


def _user_texts(messages: list[dict[str, Any]]) -> list[str]:
    """The person's messages, last first."""
    return [
        _text(message.get("content")).strip()
        for message in reversed(messages)
        if isinstance(message, dict) and message.get("role") == "user"
    ]


def _greeting(text: str) -> str | None:
    """The language of a greeting opening any sentence of ``text``, or None."""
    for sentence in re.split(r"(?<=[.!?…])\s+|\n+", text):
        found = [
            lang for lang, pattern in _GREETING_RES.items() if pattern.search(sentence.strip())
        ]
        if found:
            return found[0]
    return None


def _remembered_name(lines: list[str]) -> str | None:
    for line in lines:
        match = _NAME_LINE_RE.match(line.strip())
        if match and match.group(1).strip():
            return match.group(1).strip()
    return None


def reply(
    messages: list[dict[str, Any]],
    *,
    assistant_name: str = ASSISTANT_NAME,
    offline_memory: bool = False,
) -> str:
    """Answer the last user message deterministically. ``offline_memory``: memory's model is
    the offline writer, so a remember request it would keep nothing from is answered honestly.
    """
    if not isinstance(messages, list):
        messages = []
    said, previous = [*_user_texts(messages), "", ""][:2]
    text = plain(said)
    facts = memory_lines(messages)
    lang = detect_language(text)
    # With memory off, promising to remember would mislead.
    off = memory_is_off(messages)
    ask = facade.read_ask(said, previous, lang=lang, check_kept=offline_memory and not off)
    if ask is not None and ask.kind == "recall":
        texts = _TEXTS[ask.lang]
        if off:
            return texts["recall_off"]
        if not facts:
            return texts["nothing"]
        return "\n".join([texts["recall"], *(f"- {fact}" for fact in facts)])
    if ask is not None:
        return _TEXTS[ask.lang]["memory_off" if off else ask.outcome]
    greeting_lang = _greeting(text)
    if greeting_lang and len(text.split()) <= _GREETING_MAX_WORDS:
        name = _remembered_name(facts)
        return _TEXTS[greeting_lang]["greet"].format(name=f" {name}" if name else "")
    if not text:
        return _TEXTS[lang]["empty"].format(assistant=assistant_name)
    excerpt = said[:EXCERPT_CHARS] + ("…" if len(said) > EXCERPT_CHARS else "")
    return _TEXTS[lang]["echo"].format(assistant=assistant_name, text=excerpt)


def answer(messages: list[dict[str, Any]]) -> str:
    """The offline chat model's answer; "kept" is promised only with the offline writer."""
    return reply(messages, offline_memory=facade.offline_writer())
