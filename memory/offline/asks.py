"""What the person asks of memory in a chat message, for the offline chat model: promising to
keep something is memory's call, asked through `memory.facade.read_ask`. Pure module.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal

from memory.filters.gate import MAX_CHARS, refusal_reason
from memory.offline import style
from memory.offline.extractor import POLITE_LEAD, kept_from, remembered_clauses
from memory.offline.patterns import normalise
from memory.rules import phrases
from memory.rules.triggers import is_remember_request

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

_SENTENCE_RE: Final = re.compile(r"(?<=[.!?…])\s+|\n+")


def _first_match(
    patterns: dict[str, re.Pattern[str]], text: str, *, prefer: str | None = None
) -> str | None:
    """The language of the first pattern found in any sentence, or None; `prefer` is tried first."""
    order = sorted(patterns, key=lambda lang: lang != prefer)
    for sentence in _SENTENCE_RE.split(text):
        for lang in order:
            if patterns[lang].search(sentence.strip()):
                return lang
    return None


# An order the filters may not name as one yet ("you tell them to buy CoinX"): still no fact.
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


@dataclass(frozen=True)
class Ask:
    """A recall or a request to keep something, in its language.

    A request's `outcome`: "noted", "secret", "instruction" or "unclear" (nothing to keep)."""

    kind: Literal["recall", "request"]
    lang: str
    outcome: str = ""


def read_ask(said: str, previous: str = "", *, lang: str, check_kept: bool = False) -> Ask | None:
    """What `said` asks of memory, or None; with `check_kept`, a remember keeping nothing is
    "unclear"."""
    text = normalise(said)  # one apostrophe form and single spaces, for matching only
    if _ASKING_RE.search(text):
        recall_lang = _first_match(_RECALL_RES, text)
        if recall_lang:
            return Ask("recall", recall_lang)
    remember_lang = _first_match(_REMEMBER_RES, text, prefer=lang)
    if remember_lang and text.rstrip().endswith("?"):
        remember_lang = None
    # The product's own trigger rules, wherever the request is ("…, remember that").
    if not (remember_lang or is_remember_request(said)):
        return None
    # Promise only what will be kept: a secret or an order to the assistant is refused.
    outcome = _refusal(said) or "noted"
    if outcome == "noted" and check_kept and not kept_from(said, previous or None):
        outcome = "unclear"
    return Ask("request", remember_lang or lang, outcome)
