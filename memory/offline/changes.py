"""What a sentence says has changed, for the offline extractor (a pet that died, a job left, a
home left, a "not X but Y" correction): each function returns the list without lines no longer
current.
"""

from __future__ import annotations

import re
from typing import Final

from rapidfuzz import fuzz

from memory.offline import patterns as p
from memory.offline.facts import Fact, classify_line
from memory.offline.vocab import PETS, RELATIONS

# A pet that died: its line is no longer current.
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
    """Drop the line of a pet the sentence says died."""
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
    """After "I left the bank", older work lines go: all of them when a new job is said, else
    those sharing a word with the sentence."""
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


# "I no longer live in Nantes": the home or job line naming that place goes. Without "any more"
# a negated "I don't live in X" counts too.
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


# Where the person is now, right after a home they left, is the new home ("…, I'm in Boulder
# now"); alone, "I'm in Boulder" may be a trip.
_NOW_IN: Final = (
    (r"\b(?:i'm|i am|we're|we are)(?: now)? (?:in|based in) ", "Lives in {}"),
    (r"\b(?:sono|stiamo|siamo) (?:a|ad|in) ", "Vive a {}"),
    (r"\b(?:je suis|nous sommes|on est) (?:à|a|en) ", "Vit à {}"),
    (r"\b(?:estoy|estamos) en ", "Vive en {}"),
    (r"\b(?:bin ich|sind wir|ich bin|wir sind)(?: jetzt| nun)? in ", "Wohnt in {}"),
    (r"\b(?:estou|estamos) (?:em|no|na) ", "Mora em {}"),
)
_PLACE: Final = r"(?P<y>(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+(?: (?-i:[A-ZÀ-ÖØ-Þ])[\w'-]+){0,2})"
# The place ends the clause ("I'm in Love with Paris" names no place).
_PLACE_END: Final = (
    r"(?:\s+(?:now|ora|adesso|maintenant|ahora|jetzt|agora|instead|invece|since|da|depuis|desde|"
    r"seit)\b[^,.;!?]*)?\s*(?:$|[,.;!?…])"
)
_TRIP_RE: Final = re.compile(
    r"\b(?:this week(?:end)?|for work|on (?:a )?(?:holiday|vacation|business|a trip)|for a few "
    r"days|visiting|right now|per lavoro|in vacanza|in trasferta|per qualche giorno|questa "
    r"settimana|pour le travail|en vacances|en d[ée]placement|cette semaine|por trabajo|de "
    r"vacaciones|de viaje|esta semana|im urlaub|in urlaub|auf reisen|gesch[äa]ftlich|diese woche|"
    r"a trabalho|de f[ée]rias|esta semana)\b",
    re.IGNORECASE,
)


def new_home(sentence: str) -> Fact | None:
    """The home said right after a home the person no longer lives in, or None."""
    match = _NO_LONGER_RE.search(sentence)
    if not match or p.is_question(sentence) or p.is_hypothetical(sentence):
        return None
    if not re.search(r"\b(?:live|vivo|abito|vis|habite|wohne|lebe|moro)\b", match.group(0), re.I):
        return None
    rest = sentence[match.start() :]
    if _TRIP_RE.search(rest):
        return None  # "…, I'm in Milan this week for work": a stay, not a home
    for lead, line in _NOW_IN:
        found = re.search(lead + _PLACE + _PLACE_END, rest, re.IGNORECASE)
        if found:
            return Fact(line.format(found["y"]), "home")
    return None


# "I'm not a teacher but a nurse", "Ich bin nicht Lehrer, sondern Erzieher".
_NOT_BUT_RE: Final = re.compile(
    r"^(?P<head>.*?\b(?:not|nicht|pas)|.*?\b(?:no|non|não|nao) [\w'-]+)\s+"
    r"(?P<old>(?:(?:a|an|un|une|una|uno|ein|eine|einen|um|uma) )?[\w'-]+),?\s+"
    r"(?:but|but rather|sondern|sino|bensì|ma|mais|mas)\s+(?P<new>.+)$",
    re.IGNORECASE,
)
_NEGATION_WORD_RE: Final = re.compile(r"\s*\b(?:not|nicht|pas|ne|no|non|não|nao)\b|\bn'", re.I)


# "I'm a nurse now instead of a cook".
_INSTEAD_RE: Final = re.compile(
    r"^(?P<head>.*?\S) (?:instead of|rather than|statt|anstatt|anstelle von|au lieu de|"
    r"en lugar de|en vez de|invece di|anziché|invece che|em vez de|ao invés de|no lugar de) "
    r"(?:(?:a|an|un|une|una|uno|ein|eine|einen|um|uma|le|la|il|el|o) )?(?P<old>[\w'-]+)[.!]?$",
    re.IGNORECASE,
)


def corrected(sentence: str) -> tuple[str, str] | None:
    """(the sentence said positively, the word it corrects) for "not X but Y", else None."""
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


# "I meant Boulder, not Denver", "my daughter is 7, not 6": the old value's line takes the new.
_Y_NOT_X_RE: Final = re.compile(
    r"^(?P<before>.*\S),\s+(?:not|pas|nicht|non|no|não|nao)\s+(?P<x>[^\s,.;:!?…]+"
    r"(?: [^\s,.;:!?…]+){0,2}?)\s*(?:$|[,.;:!?…—–(]|\s-\s)",
    re.IGNORECASE,
)
# "no longer in Rome, now in Milan", "nicht mehr in Köln, jetzt in Bonn".
_NO_MORE_NOW_RE: Final = re.compile(
    r"\b(?:no longer|not any ?more|non più|plus|ya no|nicht mehr|já não|não mais)\s+"
    r"(?P<x>[^\s,.;:!?…]+(?: [^\s,.;:!?…]+){0,2}),?\s+(?:but |ma |mais |pero |sondern |mas )?"
    r"(?:now|ora|adesso|maintenant|ahora|jetzt|agora)\s+(?P<y>[^\s,.;:!?…]+"
    r"(?: [^\s,.;:!?…]+){0,2})",
    re.IGNORECASE,
)
_LEADING_RE: Final = re.compile(
    r"^(?:(?:in|at|to|a|an|the|à|au|en|a|ad|in|al|alla|nel|nella|en|el|la|le|il|lo|un|una|une|"
    r"uno|in|im|nach|der|die|das|ein|eine|em|no|na|o|um|uma|de|di|da|do)\s+)+",
    re.IGNORECASE,
)


def _value(text: str) -> str:
    return _LEADING_RE.sub("", text.strip()).strip()


def _holds(line: str, value: str) -> bool:
    return bool(re.search(r"(?<![\w])" + re.escape(value) + r"(?![\w])", line, re.IGNORECASE))


def _new_value(before: str, old: str) -> str | None:
    """What replaces `old`, said before the comma: a number for a number, a name for a name."""
    words = [word.strip(".,;:!?…\"'") for word in before.split()]
    count = len(old.split())
    if old.isdigit():
        found = next((word for word in reversed(words) if word.isdigit()), None)
        return found
    if old[:1].isupper():
        caps = [i for i, word in enumerate(words) if word[:1].isupper()]
        if caps and caps[-1] >= count - 1:
            end = caps[-1]
            return " ".join(words[end - count + 1 : end + 1])
        return None
    return " ".join(words[-count:]) if len(words) >= count else None


def _substitute(lines: list[str], old: str, new: str) -> list[str]:
    if not old or not new or old.casefold() == new.casefold():
        return lines
    if (len(old) < 2 and not old.isdigit()) or old.casefold() in p.STOPWORDS:
        return lines
    pattern = re.compile(r"(?<![\w])" + re.escape(old) + r"(?![\w])", re.IGNORECASE)
    return [pattern.sub(new, line) if _holds(line, old) else line for line in lines]


# A correction naming only the right value ("actually it's Joan"): capitalised unless "I meant".
_MEANT: Final = (
    r"i meant|i mean|volevo dire|intendevo|je voulais dire|quise decir|quería decir|ich meinte|"
    r"quis dizer|queria dizer"
)
_FIX_LEAD: Final = r"actually|no wait|correction|in realt[aà]|anzi|en fait|en realidad|na verdade"
_POLITE: Final = r"sorry|oops|wait|my bad|scusa|scusami|pardon|perd[oó]n|desculpa|no|nope"
_IS: Final = r"(?:it'?s|it is|its|[eè]|c'est|es|ist|[eé]|he'?s|she'?s|his name is|her name is)"
_NAME: Final = r"(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]{2,}"
_ONLY_NEW_VALUE_RE: Final = re.compile(
    r"^(?:(?:" + _POLITE + r"|" + _FIX_LEAD + r")[\s,:!-]+)*"
    r"(?:(?:" + _MEANT + r")\s+(?P<meant>[^\W\d_][\w'-]{2,})"
    r"|(?:" + _FIX_LEAD + r")[\s,:!-]+(?:" + _IS + r"\s+)?(?P<y>" + _NAME + r")"
    r"|(?:" + _IS + r"\s+)?(?P<z>" + _NAME + r"),?\s+(?:actually|en fait|in realt[aà]|"
    r"en realidad|na verdade|eigentlich))[\s.!…]*$",
    re.IGNORECASE,
)
_SIMILAR: Final = 0.6


def _similar_value(lines: list[str], new: str, *, similar: float = _SIMILAR) -> str | None:
    """The one name in the lines `new` corrects ("Jon" for "Joan"); None when none or several."""
    found = set()
    for line in lines:
        for word in (w.strip(".,;:!?…\"'()") for w in line.split()[1:]):
            if len(word) < 2 or not word[:1].isupper() or word.casefold() == new.casefold():
                continue
            if fuzz.ratio(word.casefold(), new.casefold()) >= similar * 100:
                found.add(word)
    return found.pop() if len(found) == 1 else None


# A sentence saying a spelling was wrong: "c'est Cloé sans h en fait", "it's spelled Jon".
_LETTER_TAIL: Final = (
    r"\w(?=\s*(?:$|[,.;:!?)]|\s(?:please|bitte|stp|svp|per favore|por favor|en fait|actually|"
    r"eigentlich|in realt[aà]|ok)\b))"
)
_RESPELL_RE: Final = re.compile(
    r"\b(?:correction|korrektur|spelled|spelt|spelling|typo|scritto male|mal escrit[oa]|"
    r"mal [ée]crit|mal geschrieben|falsch geschrieben|se escribe|si scrive|s'[ée]crit|"
    r"schreibt sich|escreve-se|se escreve|" + _MEANT + r")\b"
    r"|\b(?:with(?:out)?|mit|ohne|sans|avec|con|senza|sin|com|sem) (?:(?:one|two|an?|the|double|"
    r"einem|zwei|un|une|deux|la|una|due|il|um|uma|dois|dos) )?" + _LETTER_TAIL,
    re.IGNORECASE,
)
_CAPITALISED_RE: Final = re.compile(r"(?<![\w'])(?-i:[A-ZÀ-ÖØ-Þ])[\w'-]{2,}")
_RESPELL_SIMILAR: Final = 0.75
# Names are looked for near the spelling cue, not across a whole pasted text.
_RESPELL_WINDOW: Final = 120


def respelled(lines: list[str], sentence: str) -> list[str]:
    """A name respelt after a "spelled wrong" cue replaces the line's spelling."""
    marker = _RESPELL_RE.search(sentence)
    if not marker or p.is_question(sentence):
        return lines
    near = sentence[max(0, marker.start() - _RESPELL_WINDOW) : marker.end() + _RESPELL_WINDOW]
    first = re.match(r"\W*[\w'-]+", sentence)
    opening = first.group(0).strip() if first else ""
    for said in dict.fromkeys(_CAPITALISED_RE.findall(near)):
        if said == opening:
            continue  # a sentence's first word is capitalised anyway: no sign of a name
        old = _similar_value(lines, said, similar=_RESPELL_SIMILAR)
        if old:
            lines = _substitute(lines, old, said)
    return lines


# An age that moved on ("Leo turned 5"); the line must already give that person an age.
_AGE_UNITS: Final = r"(?:years?(?: old)?|yrs?|anni|ans|años|anos|jahre(?: alt)?|jahren)"
_BIRTHDAY_VERBS: Final = (
    r"turned|just turned|has just turned|fez|completou|ha compiuto|ha appena compiuto|compie|"
    r"a eu|vient d'avoir|cumplió|ha cumplido|cumple|ist \d{1,2} geworden|wurde|wird"
)
_TURNED_RE: Final = re.compile(
    r"\b(?P<n>" + _NAME + r") (?:"
    r"(?:" + _BIRTHDAY_VERBS + r") (?P<age>\d{1,2})\b"
    r"|(?:is|is now|ha|a|tiene|tem|ist|hat) (?:jetzt |agora |ora |ahora |maintenant )?"
    r"(?P<age2>\d{1,2}) " + _AGE_UNITS + r"(?! (?:in|next|this|à|a|en|em|im|nel|no) )\b)",
    re.IGNORECASE,
)
_AGE_ON_LINE_RE: Final = re.compile(
    r"(?<![\w])(?P<a>\d{1,2})(?= "
    + _AGE_UNITS
    + r"\b)|\b(?:is|ist|a|ha|tiene|tem) (?P<b>\d{1,2})$",
    re.IGNORECASE,
)


def aged(lines: list[str], sentence: str) -> list[str]:
    """The age on the line about that person moves to the new one."""
    if p.is_question(sentence) or p.is_hypothetical(sentence):
        return lines
    out = lines
    for match in _TURNED_RE.finditer(sentence):
        name, age = match["n"], match["age"] or match["age2"]
        if age is None:
            continue
        renewed = []
        for line in out:
            found = _AGE_ON_LINE_RE.search(line) if _holds(line, name) else None
            if found:
                at = found.start("a") if found["a"] else found.start("b")
                old = found["a"] or found["b"]
                line = line[:at] + age + line[at + len(old) :]
            renewed.append(line)
        out = renewed
    return out


def replaced(lines: list[str], sentence: str) -> list[str]:
    """Apply a value correction ("Y, not X", "no longer X, now Y") to the lines holding X."""
    if p.is_question(sentence) or p.is_hypothetical(sentence):
        return lines
    text = p.normalise(sentence)
    lines = aged(respelled(lines, text), text)
    only = _ONLY_NEW_VALUE_RE.match(text)
    if only:
        new = only["meant"] or only["y"] or only["z"]
        old = _similar_value(lines, new)
        if old:
            new = new[:1].upper() + new[1:] if old[:1].isupper() else new
            return _substitute(lines, old, new)
        return lines
    now = _NO_MORE_NOW_RE.search(text)
    if now:
        old, new = _value(now["x"]), _value(now["y"])
        if any(_holds(line, old) for line in lines):
            return _substitute(lines, old, new)
    match = _Y_NOT_X_RE.match(text)
    if not match:
        return lines
    old = _value(match["x"])
    if not old or not any(_holds(line, old) for line in lines):
        return lines
    found = _new_value(match["before"], old)
    if not found:
        return lines
    new = found
    if old.isdigit():
        # A number is corrected only on the line about the same thing, never on any line
        # holding that number.
        said = p.significant_words(match["before"])
        names = {word.strip(".,;:!?") for word in match["before"].split() if word[:1].isupper()}
        kept = [
            line
            for line in lines
            if not (said & p.significant_words(line)) and not any(_holds(line, n) for n in names)
        ]
        return [line if line in kept else _substitute([line], old, new)[0] for line in lines]
    return _substitute(lines, old, new)
