"""Value readers of the offline extractor for everyday facts: languages, dates, workplaces,
activities, drinks, health conditions. Each returns the value verbatim, or None when unsure.
"""

from __future__ import annotations

import re
from typing import Final

from memory.offline import vocab as v
from memory.offline.patterns import cut_value, word_set
from memory.offline.readers import (
    TRAILING_TIME_RE,
    bare,
    cut_at_preposition,
    one_of,
    phrase,
    take_org,
)

_LIST_TOKEN_RE: Final = re.compile(r"[^\W\d_][\w'-]*|,")
_ELISION_RE: Final = re.compile(r"^(?:d|l|dell|dall)'", re.IGNORECASE)


def languages(text: str, strict: bool) -> str | None:
    """A list of language names, up to where the names end ("Spanish and German")."""
    value = TRAILING_TIME_RE.sub("", cut_value(text))
    end = 0
    for match in _LIST_TOKEN_RE.finditer(value):
        if match.group(0) == ",":
            continue
        token = match.group(0).lower()
        if token in v.LANGUAGE_NAMES or _ELISION_RE.sub("", token) in v.LANGUAGE_NAMES:
            end = match.end()
        elif token not in v.LANGUAGE_GLUE and _ELISION_RE.sub("", token) not in v.LANGUAGE_GLUE:
            break
    return value[:end] if end else None


_DATE_RE: Final = re.compile(
    r"^(?:(?:the|il|le|el|am|em|a|o|dia|no dia|on)\s+)?"
    r"(?:\d{1,2}(?:st|nd|rd|th|er|º|\.)?(?:\s+(?:of|de|di))?\s+(?P<m1>[^\W\d_]+)"
    r"|(?P<m2>[^\W\d_]+)\s+\d{1,2}(?:st|nd|rd|th)?)(?:,?\s+(?:de\s+)?\d{4})?"
    r"(?=$|[\s,.;:!?)])",
    re.IGNORECASE,
)


def date(text: str, strict: bool) -> str | None:
    """A day and a month, maybe a year ("12 de marzo"), up to where the date ends."""
    value = cut_value(text)
    match = _DATE_RE.match(value)
    month = match and (match["m1"] or match["m2"])
    return value[: match.end()] if match and month and month.lower() in v.MONTHS else None


WORKPLACES: Final = word_set(
    "hospital school bank university pharmacy factory library office "
    "banca ospedale scuola università farmacia fabbrica biblioteca ufficio negozio ristorante "
    "banque hôpital école université pharmacie usine bibliothèque mairie entreprise "
    "hospital escuela banco universidad farmacia fábrica biblioteca oficina empresa "
    "krankenhaus klinik schule bank universität apotheke fabrik bibliothek büro "
    "hospital escola banco universidade farmácia fábrica biblioteca escritório empresa"
)
FIELDS: Final = word_set(
    "marketing sales finance tech it healthcare education retail hospitality insurance banking "
    "consulting hr design engineering research journalism law publishing software advertising "
    "construction logistics"
)


def workplace(text: str, strict: bool) -> str | None:
    """An employer by name ("Acme") or a kind of place ("a bank", "un hospital")."""
    return take_org(text) or one_of(WORKPLACES)(text, strict)


_ACTIVITY_LEAD: Final = word_set(
    "the some a bit of il lo la l' un po' di dello della dell' del le les du de des d' el "
    "los las o os as um pouco do da dos das"
)


def activity(text: str, strict: bool) -> str | None:
    """An everyday activity with its article ("de la randonnée"); None after other words."""
    out: list[str] = []
    for raw in text.split()[:5]:
        token = bare(raw)
        word = token.lower()
        split = word.split("'", 1)
        if word in v.ACTIVITIES or (len(split) == 2 and split[1] in v.ACTIVITIES):
            return " ".join([*out, token])
        if word not in _ACTIVITY_LEAD or raw != token:
            return None
        out.append(token)
    return None


def go_activity(text: str, strict: bool) -> str | None:
    """ "hiking" in "I go hiking every Sunday"."""
    words = text.split()
    token = bare(words[0]) if words else ""
    return token if token.lower() in v.GO_ACTIVITIES else None


_CONDITION_TYPE_RE: Final = re.compile(
    r"\s+(?:de\s+)?(?:type|tipo|typ)\s+(?:[12]|i{1,2}|one|two|uno|dos|due|um|dois|eins|zwei)$",
    re.IGNORECASE,
)


_CONDITION_LEAD_RE: Final = re.compile(
    r"^(?:(?:type|typ|tipo) (?:[12]|one|two) |l'|la |le |il |el |a |o |die |der )", re.IGNORECASE
)


def condition(text: str, strict: bool) -> str | None:
    """A listed health condition, maybe with its type or article ("type 2 diabetes")."""
    value = cut_value(cut_at_preposition(text))
    typed = _CONDITION_TYPE_RE.search(value)
    core = _CONDITION_LEAD_RE.sub("", value[: typed.start()] if typed else value)
    tokens = core.split()
    if not tokens or len(tokens) > 2 or bare(tokens[-1]).lower() not in v.CONDITIONS:
        return None
    return value


def drink(text: str, strict: bool) -> str | None:
    """What one does not drink, when it opens with a drink ("alcohol")."""
    value = phrase(7)(text, strict)
    tokens = [bare(token).lower() for token in (value or "").split()]
    tokens = [token for token in tokens if token not in _ACTIVITY_LEAD]
    return value if tokens and tokens[0] in v.DRINKS else None
