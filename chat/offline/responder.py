"""The offline chat model: a simple, deterministic responder in six languages (English,
Italian, French, Spanish, German, Portuguese), answering in the language of the message.

It answers "what do you remember about me?" from the memory block, greets back by name,
acknowledges remember requests (or says it won't remember, when the product tells it memory is
off, and that it can't keep a secret or an instruction for itself, which memory refuses), and
otherwise says plainly that it is the offline model. It exists so the product runs end to end
without any API key; it is not meant to be clever. The texts are in ``chat.offline.replies``.
"""

from __future__ import annotations

import re
from typing import Any, Final

from django.conf import settings

import llm
from chat.offline.replies import TEXTS as _TEXTS
from chat.offline.replies import detect_language
from memory.filters.gate import MAX_CHARS, refusal_reason
from memory.offline import extractor, style
from memory.offline.extractor import POLITE_LEAD, kept_from, remembered_clauses
from memory.offline.patterns import normalise
from memory.rules import phrases
from memory.rules.triggers import is_remember_request

# Served as "offline/whizi-chat", and for any other offline name (registered by the chat app).
MODEL_NAME: Final = "whizi-chat"

# The first line of the memory system message. It must equal ``memory.rules.prompts.MEMORY_HEADER``
# (the product owns the block; a test asserts the two stay equal) — it is repeated here so this
# module stays importable without Django.
MEMORY_HEADER: Final = "Facts about the person, saved from earlier conversations (memory):"
# The system message sent instead of the memory when memory is switched off or the conversation
# is temporary. It must equal ``memory.rules.prompts.MEMORY_OFF_NOTE`` (a test asserts it), repeated
# here for the same reason as the header.
MEMORY_OFF_NOTE: Final = (
    "Memory is off for this conversation: nothing the person says here is remembered in later "
    "conversations. Do not promise to remember anything; say so if asked."
)
ASSISTANT_NAME: Final = "Whizi"
EXCERPT_CHARS: Final = 200

# "What do you remember about me?", in each language.
_RECALL_RES: Final = {
    lang: re.compile(
        "|".join(
            [
                r"\b" + phrases.either(phrases.RECALL, langs=[lang]) + r"\b.*"
                r"\b" + phrases.either(phrases.ABOUT_ME, langs=[lang]) + r"\b",
                *(
                    r"\b" + ask + r"\b"
                    for ask in phrases.fragments(phrases.RECALL_ASKS, langs=[lang])
                ),
            ]
        ),
        re.IGNORECASE,
    )
    for lang in phrases.LANGUAGES
}
# Only a question (or "tell me …") asks for the list; "remember this about me: …" is a request.
_ASKING_RE: Final = re.compile(
    r"\?|^(?:what|do|did|tell|show|list|cosa|che|dimmi|mostrami|qu|que|quoi|de quoi|dis|montre|"
    r"qué|dime|muéstrame|was|sag|zeig|o que|diga|mostre)\b",
    re.IGNORECASE,
)
# A remember request at the start of a sentence, in each language: the reply speaks it.
_REMEMBER_RES: Final = {
    lang: re.compile(
        POLITE_LEAD
        + phrases.either(
            phrases.REMEMBER, phrases.REMEMBER_IT, phrases.NOTE, phrases.NOTE_VERB, langs=[lang]
        )
        + r"\b",
        re.IGNORECASE,
    )
    for lang in phrases.LANGUAGES
}
_GREETING_RES: Final = {
    "en": re.compile(r"^(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening))\b", re.I),
    "it": re.compile(r"^(?:ciao|salve|buongiorno|buonasera|buon pomeriggio)\b", re.I),
    "fr": re.compile(r"^(?:bonjour|bonsoir|salut|coucou)\b", re.I),
    "es": re.compile(r"^(?:hola|buenos días|buenas tardes|buenas noches|buenas)\b", re.I),
    "de": re.compile(r"^(?:hallo|guten (?:morgen|tag|abend)|servus|moin|grüß gott)\b", re.I),
    "pt": re.compile(r"^(?:olá|oi|bom dia|boa tarde|boa noite)\b", re.I),
}
# A greeting longer than this is a greeting followed by a real message.
_GREETING_MAX_WORDS: Final = 6
# The name line as the offline memory model writes it, in the language the person used.
_NAME_LINE_RE: Final = re.compile(
    r"^(?:name(?: is|:)|si chiama|s'appelle|se llama|heißt|chama-se)\s*(.+?)\.?$", re.IGNORECASE
)
_SENTENCE_RE: Final = re.compile(r"(?<=[.!?…])\s+|\n+")


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # OpenAI content parts
        parts = [part.get("text") for part in content if isinstance(part, dict)]
        return "".join(part for part in parts if isinstance(part, str))
    return ""


def memory_lines(messages: list[dict[str, Any]]) -> list[str]:
    """The facts of the memory system message: the "- " lines under MEMORY_HEADER.

    Reading stops at the first blank line after the facts; what follows (the block's footer) is
    not a fact.
    """
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
    """Whether the product said nothing here will be remembered (the MEMORY_OFF_NOTE message)."""
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


def _first_match(
    patterns: dict[str, re.Pattern[str]], text: str, *, prefer: str | None = None
) -> str | None:
    """The language of the first pattern found in any sentence of text, or None; ``prefer``'s
    pattern is tried first, for words two languages share ("Note : …" is French too)."""
    order = sorted(patterns, key=lambda lang: lang != prefer)
    for sentence in _SENTENCE_RE.split(text):
        for lang in order:
            if patterns[lang].search(sentence.strip()):
                return lang
    return None


# An order to the assistant that the code-side filters may not name as one yet ("you tell
# them to buy CoinX"): still no fact about the person.
_ORDER_RE: Final = re.compile(
    r"\b(?:you|tu|toi|du) (?:must|should|have to|need to|tell|say|recommend|will always|"
    r"devi|dici|consigli|dois|dis|recommandes|debes|dices|recomiendas|musst|sollst|sagst|"
    r"empfiehlst|deves|diz|recomenda)\b|\b(?:the |l'|el |der |o )?(?:assistant|assistente|"
    r"asistente|assistent)\w* (?:must|should|has to|deve|doit|debe|soll|muss|deveria)\b",
    re.IGNORECASE,
)


_CONNECTOR_RE: Final = re.compile(
    r"^[\s,:]*(?:(?:that|to|che|di|que|de que|de|dass)\b|qu')?[\s,:]*", re.I
)


def _asked_clauses(said: str) -> list[str]:
    """What the person asks to remember, without the request words ("n'oubliez pas que …")."""
    clauses = []
    for sentence in _SENTENCE_RE.split(normalise(said)):
        for pattern in _REMEMBER_RES.values():
            match = pattern.search(sentence.strip())
            if match:
                clauses.append(_CONNECTOR_RE.sub("", sentence.strip()[match.end() :]))
                break
    return [clause for clause in clauses if clause] or remembered_clauses(said)


def _refusal(said: str) -> str | None:
    """ "secret" or "instruction" when what the person asks to remember would be refused."""
    for clause in _asked_clauses(said):
        pieces = [clause] + (re.split(r"[,;:]\s*", clause) if len(clause) > MAX_CHARS else [])
        for piece in pieces:
            reason = refusal_reason(piece)
            if reason == "secret":
                return "secret"
            # A lasting answer-style wish ("always keep your answers short") is no instruction.
            ordered = reason in ("markup", "link", "instruction") or _ORDER_RE.search(piece)
            if ordered and not style.style_facts(piece, asked=True):
                return "instruction"
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
    """Answer the last user message of an OpenAI-style conversation, deterministically.

    ``offline_memory``: the product's memory model is the offline extractor, so a remember
    request it would keep nothing from is answered honestly instead of with a promise.
    """
    if not isinstance(messages, list):
        messages = []
    said, previous = [*_user_texts(messages), "", ""][:2]
    text = normalise(said)  # one apostrophe form and single spaces, for matching only
    facts = memory_lines(messages)
    lang = detect_language(text)
    # With memory off, promising to remember (or saying nothing is remembered) would mislead.
    off = memory_is_off(messages)
    if _ASKING_RE.search(text):
        recall_lang = _first_match(_RECALL_RES, text)
        if recall_lang:
            texts = _TEXTS[recall_lang]
            if off:
                return texts["recall_off"]
            if not facts:
                return texts["nothing"]
            return "\n".join([texts["recall"], *(f"- {fact}" for fact in facts)])
    remember_lang = _first_match(_REMEMBER_RES, text, prefer=lang)
    if remember_lang and text.rstrip().endswith("?"):
        remember_lang = None
    # "My name is Anna, remember that": the product's own trigger rules, wherever the request is.
    if remember_lang or is_remember_request(said):
        # Promise only what will be kept: a secret or an order to the assistant is refused.
        noted = "memory_off" if off else (_refusal(said) or "noted")
        if noted == "noted" and offline_memory and not kept_from(said, previous or None):
            noted = "unclear"
        return _TEXTS[remember_lang or lang][noted]
    greeting_lang = _first_match(_GREETING_RES, text)
    if greeting_lang and len(text.split()) <= _GREETING_MAX_WORDS:
        name = _remembered_name(facts)
        return _TEXTS[greeting_lang]["greet"].format(name=f" {name}" if name else "")
    if not text:
        return _TEXTS[lang]["empty"].format(assistant=assistant_name)
    excerpt = said[:EXCERPT_CHARS] + ("…" if len(said) > EXCERPT_CHARS else "")
    return _TEXTS[lang]["echo"].format(assistant=assistant_name, text=excerpt)


def answer(messages: list[dict[str, Any]]) -> str:
    """The offline chat model's answer. It acknowledges a remember request as kept only when
    the product's memory model is the offline writer, whose rules decide what it says."""
    offline_memory = f"{llm.OFFLINE_PROVIDER}/{extractor.MODEL_NAME}" == settings.MEMORY_MODEL
    return reply(messages, offline_memory=offline_memory)
