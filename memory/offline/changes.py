"""What a sentence says has changed, for the offline memory extractor: a pet that died, a job
left, a home or job that is no longer current ("Je ne vis plus à Nantes"), and a correction said
as "not X but Y" ("Ich bin nicht Lehrer, sondern Erzieher"), in six languages.

Each function takes the list and the sentence and returns the list without the lines that are
no longer current; ``corrected`` gives the sentence to read instead of a "not X but Y" one.
"""

from __future__ import annotations

import re
from typing import Final

from memory.offline import patterns as p
from memory.offline.facts import Fact, classify_line
from memory.offline.vocab import PETS, RELATIONS

# A pet that died: its line is no longer current ("Toby murió", "our dog passed away").
_DIED: Final = (
    r"(?:died|passed away|has died|is dead|è morto|è morta|è mancato|è mancata|"
    r"est mort|est morte|est décédée?|nous a quittés|murió|se murió|ha muerto|falleció|"
    r"ist gestorben|ist tot|ist verstorben|morreu|faleceu)\b"
)
_DIED_NAME_RE: Final = re.compile(r"\b(?P<n>(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+) " + _DIED, re.IGNORECASE)
_DIED_PET_RE: Final = re.compile(
    r"\b(?:my|our|il mio|la mia|mio|mia|mon|ma|notre|mi|nuestro|nuestra|mein|meine|unser|unsere|"
    r"o meu|a minha|meu|minha|o nosso|a nossa) (?P<r>[\w-]+) " + _DIED,
    re.IGNORECASE,
)
_PETS: Final = frozenset("has:" + pet for pet in PETS)
# ...not a character of a film, book, series or game.
_FICTION_RE: Final = re.compile(
    r"\b(?:film|movie|book|novel|show|series|episode|story|game|cartoon|libro|romanzo|serie|"
    r"episodio|storia|gioco|livre|roman|série|épisode|histoire|jeu|película|novela|episodio|"
    r"historia|juego|buch|folge|geschichte|spiel|filme|livro|episódio|jogo)\b",
    re.IGNORECASE,
)
# Leaving a job or changing it: the older work lines are no longer current.
_JOB_CHANGE_RE: Final = re.compile(
    r"\b(?:i (?:left|quit)|i've (?:left|quit)|i (?:changed|switched) jobs|new job|"
    r"ho lasciato|ho cambiato lavoro|nuovo lavoro|mi sono licenziat[oa]|j'ai quitté|"
    r"j'ai changé de (?:travail|boulot|job|poste)|nouveau (?:travail|boulot|job|poste)|"
    r"dejé|he dejado|cambié de (?:trabajo|empleo)|nuevo (?:trabajo|empleo)|renuncié|"
    r"gekündigt|verlassen|job gewechselt|neuen? (?:job|arbeit|stelle)|saí d[oae]|deixei|"
    r"mudei de (?:emprego|trabalho)|novo (?:emprego|trabalho)|me demiti|demiti-me)\b",
    re.IGNORECASE,
)
_WORK_KEYS: Final = frozenset({"work_as", "work_at", "teaches"})


def passed_away(lines: list[str], sentence: str) -> list[str]:
    """Drop the line of a pet the sentence says died ("Toby murió", "my dog passed away")."""
    if p.is_question(sentence) or p.is_hypothetical(sentence) or _FICTION_RE.search(sentence):
        return lines
    named = {match["n"].casefold() for match in _DIED_NAME_RE.finditer(sentence)}
    kinds = set()
    for match in _DIED_PET_RE.finditer(sentence):
        noun = RELATIONS.get(match["r"].lower())
        if noun:
            kinds.add("has:" + noun.removesuffix("s"))
    if not named and not kinds:
        return lines
    kept = []
    for line in lines:
        key = classify_line(line)[1]
        words = {w.casefold().strip(".,") for w in line.split()}
        if key in _PETS and (named & words or key in kinds):
            continue
        kept.append(line)
    return kept


def job_changed(lines: list[str], sentence: str, facts: list[Fact]) -> list[str]:
    """After "I left the bank" or "I changed jobs", the older work lines are not current: all of
    them when a new job is said, else those sharing a word with the sentence ("Saí do banco")."""
    if not _JOB_CHANGE_RE.search(sentence):
        return lines
    new_job = any(fact.key in _WORK_KEYS for fact in facts)
    words = p.significant_words(sentence, RELATIONS)
    kept = []
    for line in lines:
        if classify_line(line)[1] in _WORK_KEYS and (
            new_job or words & p.significant_words(line, RELATIONS)
        ):
            continue
        kept.append(line)
    return kept


# "I no longer live in Nantes", "non lavoro più da Rossi", "ya no vivo en Madrid": the lines of
# that home or job naming the place go. Without "any more" a negated "I don't live in X" counts.
_NO_LONGER_RE: Final = re.compile(
    r"\b(?:i|we) (?:no longer|don't|do not|dont) (?:live|work) (?:in|at|for) (?P<x>.+)"
    r"|\bnon (?:vivo|abito|lavoro|viviamo|abitiamo) (?:più )?(?:a|ad|in|per|presso|da|al|alla) "
    r"(?P<x2>.+)"
    r"|\b(?:je|nous) n(?:e |')(?:vis|habite|travaille|vivons|habitons) (?:plus|pas) "
    r"(?:à|a|en|au|chez|pour|dans) (?P<x3>.+)"
    r"|\b(?:ya )?no (?:vivo|trabajo|vivimos) (?:más )?(?:en|para) (?P<x4>.+)"
    r"|\b(?:ich|wir) (?:wohne|lebe|arbeite|wohnen|leben) nicht mehr (?:in|bei|für) (?P<x5>.+)"
    r"|\b(?:já )?não (?:moro|vivo|trabalho|moramos) (?:mais )?(?:em|no|na|para) (?P<x6>.+)",
    re.IGNORECASE,
)
_PLACE_KEYS: Final = frozenset({"home", "work_at"})


def no_longer(lines: list[str], sentence: str) -> list[str]:
    """Drop the home or workplace line naming the place the person no longer lives or works at."""
    if p.is_question(sentence) or p.is_hypothetical(sentence):
        return lines
    match = _NO_LONGER_RE.search(sentence)
    if not match:
        return lines
    said = next(value for value in match.groups() if value is not None)
    words = p.significant_words(p.cut_value(said.split(",")[0]))
    if not words:
        return lines
    return [
        line
        for line in lines
        if classify_line(line)[1] not in _PLACE_KEYS or not words & p.significant_words(line)
    ]


# "I'm not a teacher but a nurse", "Ich bin nicht Lehrer, sondern Erzieher", "no soy profesor
# sino enfermero", "je ne suis pas infirmière mais médecin", "non sono X, ma Y".
_NOT_BUT_RE: Final = re.compile(
    r"^(?P<head>.*?\b(?:not|nicht|pas)|.*?\b(?:no|non|não|nao) [\w'-]+)\s+"
    r"(?P<old>(?:(?:a|an|un|une|una|uno|ein|eine|einen|um|uma) )?[\w'-]+),?\s+"
    r"(?:but|but rather|sondern|sino|bensì|ma|mais|mas)\s+(?P<new>.+)$",
    re.IGNORECASE,
)
_NEGATION_WORD_RE: Final = re.compile(r"\s*\b(?:not|nicht|pas|ne|no|non|não|nao)\b|\bn'", re.I)


# "bin jetzt Krankenpfleger statt Koch", "I'm a nurse now instead of a cook".
_INSTEAD_RE: Final = re.compile(
    r"^(?P<head>.*?\S) (?:instead of|rather than|statt|anstatt|anstelle von|au lieu de|"
    r"en lugar de|en vez de|invece di|anziché|invece che|em vez de|ao invés de|no lugar de) "
    r"(?:(?:a|an|un|une|una|uno|ein|eine|einen|um|uma|le|la|il|el|o) )?(?P<old>[\w'-]+)[.!]?$",
    re.IGNORECASE,
)


def corrected(sentence: str) -> tuple[str, str] | None:
    """(the sentence said positively, the word it corrects) for "not X but Y" or "Y instead of
    X", else None."""
    if p.is_question(sentence) or p.is_hypothetical(sentence):
        return None
    instead = _INSTEAD_RE.match(sentence.strip())
    if instead:
        return instead["head"], instead["old"]
    match = _NOT_BUT_RE.match(sentence.strip())
    if not match:
        return None
    head = _NEGATION_WORD_RE.sub(" ", match["head"])
    old = match["old"].split()[-1]
    return " ".join(f"{head} {match['new']}".split()), old


def drop_corrected(lines: list[str], old: str, facts: list[Fact]) -> list[str]:
    """After "not X but Y", lines of the same kind as the new fact that name X go."""
    keys = {fact.key for fact in facts if fact.key}
    if not keys:
        return lines
    word = old.casefold()
    return [
        line
        for line in lines
        if classify_line(line)[1] not in keys
        or word not in {w.strip(".,").casefold() for w in line.split()}
    ]
