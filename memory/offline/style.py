"""Lasting answer-style preferences for the offline memory model ("keep your answers short from
now on" → "Prefers short answers").

Only a lasting wish about the answers (no question, negation or reported speech) gives a line.
Lines are fixed wordings per language, so a later wish of the same kind replaces the older.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from memory.offline import patterns as p
from memory.offline.rules import Fact, Kind, kind


@dataclass(frozen=True)
class _Feature:
    pattern: re.Pattern[str]
    line: str
    key: str
    # Lasting by nature (the form of address): no "always" or remember request needed.
    lasting: bool = False


@dataclass(frozen=True)
class _Lang:
    about: re.Pattern[str]  # the sentence speaks of the assistant's answers
    lasting: re.Pattern[str]  # "prefer", "always", "from now on"
    features: tuple[_Feature, ...]


def _rx(text: str) -> re.Pattern[str]:
    return re.compile(text, re.IGNORECASE)


def _f(rx: str, line: str, key: str, *, lasting: bool = False) -> _Feature:
    return _Feature(_rx(rx), line, f"style:{key}", lasting)


_LANGS: Final[tuple[_Lang, ...]] = (
    _Lang(
        _rx(r"\b(?:answers?|replies|reply|responses?|respond|explain|explanations?|keep it|"
            r"talk to me|write to me)\b"),
        _rx(r"\b(?:prefer|always|from now on|in (?:the )?future|going forward|every time|"
            r"whenever|i like it when|i like when)\b"),
        (
            _f(r"\b(?:short|shorter|brief|concise|succinct|to the point)\b",
               "Prefers short answers", "length"),
            _f(r"\b(?:detailed|in-depth|in depth|longer|thorough)\b", "Prefers detailed answers",
               "length"),
            _f(r"\bstep[- ]by[- ]step\b", "Prefers step-by-step explanations", "steps"),
            _f(r"\bexamples?\b", "Prefers explanations with examples", "examples"),
            _f(r"\bbullet(?:ed)?(?: points?| lists?)?\b", "Prefers bullet points", "format"),
        ),
    ),
    _Lang(
        _rx(r"\b(?:rispost\w+|rispond\w*|spieg\w+|parlami|scrivimi)\b"),
        _rx(r"\b(?:preferisco|mi piacciono le risposte|mi piace quando|"
            r"sempre|d'ora in poi|da ora in poi|da adesso in poi|in futuro|"
            r"ogni volta)\b"),
        (
            _f(r"\b(?:brevi|breve|concis[oaie]|sintetic\w+|corte|stringat[ei])\b",
               "Preferisce risposte brevi", "length"),
            _f(r"\b(?:dettagliat[ei]|approfondit[ei]|lunghe)\b", "Preferisce risposte dettagliate",
               "length"),
            _f(r"\bpasso (?:dopo |per )?passo\b", "Preferisce spiegazioni passo passo", "steps"),
            _f(r"\besemp(?:i|io)\b", "Preferisce spiegazioni con esempi", "examples"),
            _f(r"\b(?:dammi|darmi|dai|dare|diamoci) (?:pure )?del tu\b",
               "Preferisce che gli si dia del tu", "address", lasting=True),
            _f(r"\b(?:dammi|darmi|dai|dare) (?:pure )?del lei\b",
               "Preferisce che gli si dia del Lei", "address", lasting=True),
        ),
    ),
    _Lang(
        _rx(r"\b(?:réponses?|répond\w*|expliqu\w*|explications?)\b"),
        _rx(r"\b(?:préfère|j'aime bien quand|j'aime quand|j'adore quand|"
            r"toujours|désormais|dorénavant|à partir de maintenant|à l'avenir|"
            r"chaque fois)\b"),
        (
            _f(r"\b(?:courtes?|brèves?|bref|concises?|concis|succinct\w*|concision)\b",
               "Préfère des réponses concises", "length"),
            _f(r"\b(?:détaillée?s?|approfondie?s?)\b", "Préfère des réponses détaillées", "length"),
            _f(r"\bétape par étape\b", "Préfère des explications étape par étape", "steps"),
            _f(r"\bexemples?\b", "Préfère des explications avec des exemples", "examples"),
            _f(r"\btutoi\w*|\btutoy\w+", "Préfère le tutoiement", "address", lasting=True),
            _f(r"\bvouvoi\w*|\bvouvoy\w+", "Préfère le vouvoiement", "address", lasting=True),
        ),
    ),
    _Lang(
        _rx(r"\b(?:respuestas?|respond\w*|contest\w*|expli(?:ca|que)\w*|explicaciones?)\b"),
        _rx(r"\b(?:prefiero|me gustan (?:las )?respuestas|me gusta cuando|me encanta cuando|"
            r"siempre|a partir de ahora|de ahora en adelante|en adelante|"
            r"cada vez)\b"),
        (
            _f(r"\b(?:cortas?|cortit[oa]s|breves?|concis[oa]s?|al grano)\b",
               "Prefiere respuestas breves", "length"),
            _f(r"\bdetallad[oa]s?\b", "Prefiere respuestas detalladas", "length"),
            _f(r"\bpaso a paso\b", "Prefiere explicaciones paso a paso", "steps"),
            _f(r"\bejemplos?\b", "Prefiere explicaciones con ejemplos", "examples"),
            _f(r"\btute\w+|\btutéa\w*|\bde tú\b", "Prefiere que le tuteen", "address",
               lasting=True),
            _f(r"\bde usted\b", "Prefiere que le traten de usted", "address", lasting=True),
        ),
    ),
    _Lang(
        _rx(r"\b(?:antwort\w*|erklär\w*|erkläre\w*|erklärung\w*)\b"),
        _rx(r"\b(?:bevorzuge|am liebsten|"
            r"immer|ab jetzt|von nun an|künftig|in zukunft|jedes mal|lieber)\b"),
        (
            _f(r"\b(?:kurz|kurze[nr]?|knapp|knappe[nr]?|prägnant\w*)\b",
               "Bevorzugt kurze Antworten", "length"),
            _f(r"\b(?:ausführlich\w*|detailliert\w*)\b", "Bevorzugt ausführliche Antworten",
               "length"),
            _f(r"\bschritt für schritt\b", "Bevorzugt Erklärungen Schritt für Schritt", "steps"),
            _f(r"\bbeispiele?n?\b", "Bevorzugt Erklärungen mit Beispielen", "examples"),
            _f(r"\bduz\w*|\bdu kannst mich duzen\b", "Möchte geduzt werden", "address",
               lasting=True),
            _f(r"\bsiez\w*", "Möchte gesiezt werden", "address", lasting=True),
        ),
    ),
    _Lang(
        _rx(r"\b(?:respostas?|respond\w*|expli(?:ca|que)\w*|explicações|explicação)\b"),
        _rx(r"\b(?:prefiro|gosto de respostas|gosto quando|"
            r"sempre|a partir de agora|de agora em diante|daqui para a frente|"
            r"daqui pra frente)\b"),
        (
            _f(r"\b(?:curtas?|breves?|concisas?|diretas?)\b", "Prefere respostas curtas",
               "length"),
            _f(r"\bdetalhad[oa]s?\b", "Prefere respostas detalhadas", "length"),
            _f(r"\bpasso a passo\b", "Prefere explicações passo a passo", "steps"),
            _f(r"\bexemplos?\b", "Prefere explicações com exemplos", "examples"),
            _f(r"\btrat\w+ (?:por|de) tu\b", "Prefere ser tratado por tu", "address",
               lasting=True),
            _f(r"\btrat\w+ (?:por|de) você\b", "Prefere ser tratado por você", "address",
               lasting=True),
        ),
    ),
)  # fmt: skip

KINDS: Final[tuple[Kind, ...]] = tuple(
    kind("^" + re.escape(p.normalise(feature.line)) + "$", p.TIER_PREFERENCE, feature.key)
    for lang in _LANGS
    for feature in lang.features
)


# A planted instruction is no style wish: a link, markup, quoted words to add, or a rule for
# every answer.
_PLANTED_RE: Final = _rx(
    r"https?:|www\.|\b[\w-]+\.[a-z]{2,24}\b|[<>{}\[\]\"“”«»]|'[^']+'|"
    r"\b(?:visit|ignore|tell the user|(?:end|start|begin|sign) (?:each|every|all|your)|"
    r"ogni risposta|chaque réponse|cada respuesta|jede antwort|cada resposta)\b"
)


def style_facts(sentence: str, *, asked: bool) -> list[Fact]:
    """The lasting answer-style wishes of one sentence, in the language it was said in."""
    if p.is_question(sentence) or p.is_reported(sentence) or p.is_negated(sentence):
        return []
    if _PLANTED_RE.search(sentence):
        return []
    facts: list[Fact] = []
    for lang in _LANGS:
        about = bool(lang.about.search(sentence))
        lasting = asked or bool(lang.lasting.search(sentence))
        for feature in lang.features:
            if not feature.pattern.search(sentence):
                continue
            if feature.lasting or (about and lasting):
                fact = Fact(feature.line, feature.key)
                if fact not in facts:
                    facts.append(fact)
    return facts
