"""A chat's title from its first message: a deterministic rule, never a model call.

The first sentence that says something, in the person's words, without markup or a leading
greeting, cut at a word. A greeting alone gives no title. Pure: no Django import.
"""

from __future__ import annotations

import re

TITLE_CHARS = 48
TITLE_WORDS = 8
ELLIPSIS = "…"

_FENCE = re.compile(r"^\s*(```|~~~)")
_LINE_MARKUP = re.compile(r"^\s*(?:#{1,6}\s+|(?:>\s*)+|(?:[-*+•]|\d{1,3}[.)])\s+)+")
_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_ADDRESS = re.compile(r"\b(?:https?://|www\.)\S+", re.IGNORECASE)
_TAG = re.compile(r"</?[a-zA-Z][^>]*>")
# Underscores only at a word's edge (``_thesis_``), so ``file_name`` keeps its own.
_EMPHASIS = re.compile(r"[*`~]+|(?<!\w)_+|_+(?!\w)")

_GREETING = (
    r"(?:hi|hello|hey|hiya|howdy|greetings|good\s+(?:morning|afternoon|evening|day)"
    r"|ciao|salve|buongiorno|buonasera|buon\s+pomeriggio"
    r"|bonjour|bonsoir|salut|coucou"
    r"|hola|buenos\s+d[ií]as|buenas(?:\s+(?:tardes|noches))?"
    r"|hallo|guten\s+(?:morgen|tag|abend)|servus|moin"
    r"|ol[áa]|oi|bom\s+dia|boa\s+(?:tarde|noite))"
)
# A greeting (perhaps "Hi there"), then punctuation, or alone: "Hello world program" is none.
_GREETING_START = re.compile(
    rf"^{_GREETING}(?:\s+[^\s,!.:;?]{{1,30}})?\s*[,!.:;]+\s*|^{_GREETING}\s*$", re.IGNORECASE
)
_SENTENCE_END = re.compile(r"[.!?…](?=\s|$)|[。！？]")
_EDGE_PUNCTUATION = " \t.,;:!?…。！？、-–—"
_OPENING_MARKS = " \t¿¡"


def title_for(message: str) -> str:
    """The chat's title from its first message, or "" when it says nothing to name it by."""
    prose, code = _lines(message)
    for line in prose:
        title = _title_of(line)
        if title:
            return title
    for line in code:  # only code: its first line, as written
        words = " ".join(line.split())
        if any(c.isalnum() for c in words):
            return _cut(words)
    return ""


def _lines(message: str) -> tuple[list[str], list[str]]:
    """The message's lines outside code fences, and those inside."""
    prose: list[str] = []
    code: list[str] = []
    in_code = False
    for line in message.splitlines():
        if _FENCE.match(line):
            in_code = not in_code
            continue
        (code if in_code else prose).append(line)
    return prose, code


def _title_of(line: str) -> str:
    text = _LINK.sub(r"\1", _LINE_MARKUP.sub("", line))
    text = _EMPHASIS.sub("", _TAG.sub("", _ADDRESS.sub("", text)))
    text = " ".join(text.split())
    for _ in range(3):  # "Hi! Good morning! …"
        text = _GREETING_START.sub("", text, count=1)
    end = _SENTENCE_END.search(text)
    if end:
        text = text[: end.start()]
    text = text.strip(_EDGE_PUNCTUATION).lstrip(_OPENING_MARKS)
    if not any(c.isalnum() for c in text):
        return ""
    first = text.split(" ", 1)[0]
    if first.islower():
        text = text[0].upper() + text[1:]
    return _cut(text)


def _cut(text: str) -> str:
    """At most ``TITLE_WORDS`` words and ``TITLE_CHARS`` characters, cut between words."""
    words = text.split(" ")
    cut = " ".join(words[:TITLE_WORDS])
    if len(cut) > TITLE_CHARS:
        space = cut.rfind(" ", 0, TITLE_CHARS + 1)
        cut = cut[:space] if space > 0 else cut[:TITLE_CHARS]
    if cut == text:
        return text
    return cut.rstrip(_EDGE_PUNCTUATION) + ELLIPSIS
