"""The offline chat model: a simple, deterministic responder (English, Italian, French).

It answers "what do you remember about me?" from the memory block, greets back by name,
acknowledges remember requests (or says it won't remember, when the product tells it memory is
off), and otherwise says plainly that it is the offline model. It exists so the product runs end
to end without any API key; it is not meant to be clever. French replies say "vous", like the UI.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from chat.offline.patterns import normalise, word_set
from memory.triggers import is_remember_request

# The first line of the memory system message. It must equal ``memory.prompts.MEMORY_HEADER``
# (the product owns the block; a test asserts the two stay equal) — it is repeated here so this
# module stays importable without Django.
MEMORY_HEADER: Final = "Facts about the person, saved from earlier conversations (memory):"
# The system message sent instead of the memory when memory is switched off or the conversation
# is temporary. It must equal ``memory.prompts.MEMORY_OFF_NOTE`` (a test asserts it), repeated
# here for the same reason as the header.
MEMORY_OFF_NOTE: Final = (
    "Memory is off for this conversation: nothing the person says here is remembered in later "
    "conversations. Do not promise to remember anything; say so if asked."
)
ASSISTANT_NAME: Final = "Whizi"
EXCERPT_CHARS: Final = 200

_RECALL_RES: Final = {
    "en": re.compile(
        r"\b(?:remember|know|recall|saved|stored)\b.*\b(?:about|of|on) me\b"
        r"|\bwhat(?:'s| is) in your memory\b",
        re.IGNORECASE,
    ),
    "it": re.compile(
        r"\b(?:ricordi|sai|conosci|memorizzato|salvato)\b.*\b(?:di me|su di me|riguardo a me)\b",
        re.IGNORECASE,
    ),
    "fr": re.compile(
        r"\b(?:souviens|souvenez|sais|savez|connais|connaissez|retiens|retenez|retenu"
        r"|mémorisé)\b.*\b(?:moi|mon sujet|me concernant)\b",
        re.IGNORECASE,
    ),
}
# Only a question (or "tell me …") asks for the list; "remember this about me: …" is a request.
_ASKING_RE: Final = re.compile(
    r"\?|^(?:what|do|did|tell|show|list|cosa|che|dimmi|mostrami|qu|que|quoi|de quoi|dis|montre)\b",
    re.IGNORECASE,
)
_REMEMBER_RES: Final = {
    "en": re.compile(
        r"^(?:(?:please|pls|ok|okay|and|also|hey|can you|could you)[\s,]+)*"
        r"(?:remember|don't forget|do not forget|memori[sz]e|keep in mind)\b",
        re.IGNORECASE,
    ),
    "it": re.compile(
        r"^(?:(?:per favore|ti prego|e|puoi|potresti)[\s,]+)*"
        r"(?:ricorda(?:ti)?|non dimenticare|memorizza|tieni a mente)\b",
        re.IGNORECASE,
    ),
    "fr": re.compile(
        r"^(?:(?:s'il te plaît|s'il vous plaît|stp|svp|et|peux-tu|pouvez-vous|tu peux"
        r"|vous pouvez)[\s,]+)*"
        r"(?:retiens|retenez|souviens-toi|souvenez-vous|n'oublie pas|n'oubliez pas|mémorise"
        r"|mémorisez|rappelle-toi|rappelez-vous)\b",
        re.IGNORECASE,
    ),
}
_GREETING_RES: Final = {
    "en": re.compile(r"^(?:hi|hello|hey|hiya|howdy|good (?:morning|afternoon|evening))\b", re.I),
    "it": re.compile(r"^(?:ciao|salve|buongiorno|buonasera|buon pomeriggio)\b", re.I),
    "fr": re.compile(r"^(?:bonjour|bonsoir|salut|coucou)\b", re.I),
}
# A greeting longer than this is a greeting followed by a real message.
_GREETING_MAX_WORDS: Final = 6
# The name line as the offline memory model writes it, in the language the person used.
_NAME_LINE_RE: Final = re.compile(
    r"^(?:name(?: is|:)|si chiama|s'appelle|se llama|heißt|chama-se)\s*(.+?)\.?$", re.IGNORECASE
)
_SENTENCE_RE: Final = re.compile(r"(?<=[.!?…])\s+|\n+")
_CHUNK_RE: Final = re.compile(r"\s*\S+\s*|\s+")

_TEXTS: Final = {
    "en": {
        "recall": "Here is what I remember about you:",
        "nothing": "I don't remember anything about you yet.",
        "noted": "Got it — I'll remember that.",
        "memory_off": "Memory is off here, so I won't remember this after our conversation.",
        "recall_off": "Memory is off here, so I can't look at what I remember about you.",
        "greet": "Hi{name}! How can I help you today?",
        "echo": "I'm {assistant}'s offline model, so my answers are simple. You said: \"{text}\"",
        "empty": "I'm {assistant}'s offline model. What would you like to talk about?",
    },
    "it": {
        "recall": "Ecco cosa ricordo di te:",
        "nothing": "Non ricordo ancora nulla di te.",
        "noted": "Va bene, me lo ricorderò.",
        "memory_off": "Qui la memoria è disattivata, quindi non me lo ricorderò dopo questa "
        "conversazione.",
        "recall_off": "Qui la memoria è disattivata, quindi non posso vedere cosa ricordo di te.",
        "greet": "Ciao{name}! Come posso aiutarti oggi?",
        "echo": "Sono il modello offline di {assistant}, quindi le mie risposte sono semplici. "
        'Hai scritto: "{text}"',
        "empty": "Sono il modello offline di {assistant}. Di cosa vuoi parlare?",
    },
    "fr": {
        "recall": "Voici ce dont je me souviens à votre sujet :",
        "nothing": "Je ne me souviens encore de rien à votre sujet.",
        "noted": "C'est noté, je m'en souviendrai.",
        "memory_off": "La mémoire est désactivée ici, donc je ne m'en souviendrai pas après "
        "cette conversation.",
        "recall_off": "La mémoire est désactivée ici, donc je ne peux pas voir ce dont je me "
        "souviens à votre sujet.",
        "greet": "Bonjour{name} ! Comment puis-je vous aider aujourd'hui ?",
        "echo": "Je suis le modèle hors ligne de {assistant}, donc mes réponses sont simples. "
        "Vous avez écrit : « {text} »",
        "empty": "Je suis le modèle hors ligne de {assistant}. De quoi voulez-vous parler ?",
    },
}
_LANG_WORDS: Final = {
    "it": word_set(
        "ciao cosa ricordi sai di mi che il sono ho non è buongiorno buonasera grazie ricorda "
        "ricordati come stai mio mia della io tutto perché questo una per ti si fa gli del"
    ),
    "fr": word_set(
        "bonjour bonsoir salut je tu que qu est ce moi mon ma de souviens sais retiens merci "
        "vous ça à sujet quoi j c suis les des pas une pour te comment faire du avec dans sur nous "
        "votre vos pouvez avez"
    ),
    "en": word_set(
        "the you what i my is are do hello hi hey remember know about how please that and me "
        "thanks thank can this"
    ),
}


def detect_language(text: str) -> str:
    """Guess "en", "it" or "fr" from common words; English wins ties."""
    words = re.findall(r"[^\W\d_]+", normalise(text).casefold())
    scores = {lang: sum(word in vocab for word in words) for lang, vocab in _LANG_WORDS.items()}
    best = max(("it", "fr"), key=lambda lang: scores[lang])
    return best if scores[best] > scores["en"] else "en"


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


def _last_user_text(messages: list[dict[str, Any]]) -> str:
    for message in reversed(messages):
        if isinstance(message, dict) and message.get("role") == "user":
            return _text(message.get("content")).strip()
    return ""


def _first_match(patterns: dict[str, re.Pattern[str]], text: str) -> str | None:
    """The language of the first pattern found in any sentence of text, or None."""
    for sentence in _SENTENCE_RE.split(text):
        for lang, pattern in patterns.items():
            if pattern.search(sentence.strip()):
                return lang
    return None


def _remembered_name(lines: list[str]) -> str | None:
    for line in lines:
        match = _NAME_LINE_RE.match(line.strip())
        if match and match.group(1).strip():
            return match.group(1).strip()
    return None


def reply(messages: list[dict[str, Any]], *, assistant_name: str = ASSISTANT_NAME) -> str:
    """Answer the last user message of an OpenAI-style conversation, deterministically."""
    if not isinstance(messages, list):
        messages = []
    said = _last_user_text(messages)
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
    noted = "memory_off" if off else "noted"
    remember_lang = _first_match(_REMEMBER_RES, text)
    if remember_lang and not text.rstrip().endswith("?"):
        return _TEXTS[remember_lang][noted]
    # "My name is Anna, remember that": the product's own trigger rules, wherever the request is.
    if is_remember_request(said):
        return _TEXTS[lang][noted]
    greeting_lang = _first_match(_GREETING_RES, text)
    if greeting_lang and len(text.split()) <= _GREETING_MAX_WORDS:
        name = _remembered_name(facts)
        return _TEXTS[greeting_lang]["greet"].format(name=f" {name}" if name else "")
    if not text:
        return _TEXTS[lang]["empty"].format(assistant=assistant_name)
    excerpt = said[:EXCERPT_CHARS] + ("…" if len(said) > EXCERPT_CHARS else "")
    return _TEXTS[lang]["echo"].format(assistant=assistant_name, text=excerpt)


def stream_words(text: str) -> Iterator[str]:
    """Split a reply into chunks (words with their trailing spaces) for streaming.

    Joining the chunks gives back the text exactly, leading whitespace and newlines included.
    """
    for match in _CHUNK_RE.finditer(text):
        yield match.group(0)
