"""What the offline memory model reads in one text: the rules that turn the person's words into
facts ("My name is Anna" → "Name is Anna"), in English, Italian and French.

Part of the offline extractor (``chat.offline.extractor`` applies these facts to a list).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from chat.offline import patterns as p

MIN_LINE: Final = 3
MAX_LINE: Final = 160


@dataclass(frozen=True)
class Fact:
    """One line to store; lines sharing a non-None key hold one value (newest wins)."""

    line: str
    key: str | None = None


# A builder turns a rule's match into a Fact, or None when the capture is no fact after all
# ("call me later"). The flag is strict mode (voice): only unambiguous captures pass.
Builder = Callable[[re.Match[str], bool], "Fact | None"]


# --- builders ---------------------------------------------------------------------------------
def _name(*, capped: bool) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        value = p.take_name(m["v"], require_cap=capped or strict)
        return Fact(f"Name is {value}", "name") if value else None

    return build


def _place(prefix: str, key: str, *, lower_ok: bool) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        value = p.take_place(m["v"], allow_lower=lower_ok and not strict)
        return Fact(f"{prefix} {value}", key) if value else None

    return build


def _role_line(english: str) -> Fact:
    """The work line of a translated job: "Works as a nurse", "Is a student", "Is retired"."""
    if english in ("student", "retired"):
        return Fact("Is a student" if english == "student" else "Is retired", "work_as")
    return Fact(f"Works as {p.with_article(english)}", "work_as")


def _work_as(*, dictionary_only: bool) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        role = p.take_role(m["v"])
        if not role:
            return None
        # Italian and French jobs are translated from their first noun ("infermiera pediatrica").
        first = p.strip_article(role).split()[0].lower() if p.strip_article(role) else ""
        if first in p.JOBS:
            return _role_line(p.JOBS[first])
        if dictionary_only:
            return None
        return Fact(f"Works as {role}", "work_as")

    return build


def _im_a(m: re.Match[str], strict: bool) -> Fact | None:
    role = p.take_role(m["v"], limit=4)
    if not role or not p.looks_like_job(role.split()[-1]):
        return None
    if role.lower() == "student":
        return Fact("Is a student", "work_as")
    return Fact(f"Works as {m['art'].lower()} {role}", "work_as")


def _faccio(m: re.Match[str], strict: bool) -> Fact | None:
    # "faccio il medico" is a job, "faccio la spesa" is not: only known or job-shaped nouns.
    role = p.take_role(m["v"], limit=2)
    if not role:
        return None
    if role.lower() in p.JOBS:
        return _role_line(p.JOBS[role.lower()])
    if role.lower().endswith(("ista", "iere", "iera", "tore", "trice")):
        return Fact(f"Works as {role}", "work_as")
    return None


def _work_at(*, names_ok: bool) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        text = m["v"]
        place = p.strip_article(text.split()[0] if text.split() else "").lower()
        if place in p.WORKPLACES:
            return Fact(f"Works at {p.WORKPLACES[place]}", "work_at")
        if not names_ok:
            return None
        org = p.take_org(text)
        return Fact(f"Works at {org}", "work_at") if org else None

    return build


def _fixed(line: str, key: str | None) -> Builder:
    return lambda m, strict: Fact(line, key)


# Word stems → English status, checked in order ("végétalien" is vegan, "végétarien" is not).
_STATUSES: Final = (
    ("vegan", "vegan"), ("végan", "vegan"), ("végétal", "vegan"), ("veg", "vegetarian"),
    ("vég", "vegetarian"), ("pesc", "pescatarian"), ("spos", "married"), ("mari", "married"),
    ("marr", "married"), ("fidanz", "engaged"), ("fianc", "engaged"), ("divor", "divorced"),
    ("vedov", "widowed"), ("veu", "widowed"), ("widow", "widowed"), ("engaged", "engaged"),
)  # fmt: skip


def _status(key: str) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        word = m["v"].lower()
        status = next((value for stem, value in _STATUSES if word.startswith(stem)), None)
        return Fact(f"Is {status}", key) if status else None

    return build


def _count(m: re.Match[str], strict: bool) -> Fact | None:
    count = p.NUMBERS.get(m["n"].lower(), m["n"])
    # English nouns stay as written ("Has two kids"); Italian and French ones are translated.
    words = m["v"].split()
    english = " ".join(
        w if w.lower() in p.EN_COUNT_NOUNS else p.RELATIONS.get(w.lower(), w) for w in words
    )
    if count == "a" and english[:1] in "aeiou":
        count = "an"
    line = f"Has {count} {english}"
    named = re.match(r"\s*(?:named|called|che si chiama|qui s'appelle)\s+(\S+)", m["rest"], re.I)
    if named:
        name = p.take_name(named.group(1), require_cap=True)
        line += f" named {name}" if name else ""
    return Fact(line, classify_line(line)[1])


def _relative(*, capped: bool) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        noun = p.RELATIONS.get(m["r"].lower())
        name = p.take_name(m["v"], require_cap=capped or strict)
        if not noun or not name:
            return None
        key = f"rel:{noun}" if noun in p.SINGLE_RELATIONS else None
        return Fact(f"{p.capitalise(noun)} is {name}", key)

    return build


def _taste(verb: str, *, max_words: int = 8) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        value = p.take_value(m["v"], max_words=max_words)
        if not value:
            return None
        line = f"{verb} {p.translate_phrase(value)}"
        return Fact(line, classify_line(line)[1])

    return build


def _goal(prefix: str) -> Builder:
    def build(m: re.Match[str], strict: bool) -> Fact | None:
        value = p.take_value(m["v"], max_words=10)
        return Fact(f"{prefix}{translate_goal(value)}", None) if value else None

    return build


def translate_goal(value: str) -> str:
    """Translate a leading Italian or French verb and a known object ("imparare lo spagnolo")."""
    lowered = value.lower()
    for verb in sorted(p.GOAL_VERBS, key=len, reverse=True):
        if lowered.startswith(verb + " "):
            rest = value[len(verb) :].strip()
            return f"{p.GOAL_VERBS[verb]} {p.translate_phrase(rest)}"
    return p.translate_phrase(value)


# --- rules: (pattern, builder); every rule may fire on a clause -------------------------------
_RULES: Final[tuple[tuple[str, Builder], ...]] = (
    (r"\bmy name(?: is|'s) (?P<v>.+)", _name(capped=False)),
    (p.I_AM + r" called (?P<v>.+)", _name(capped=False)),
    (r"\bmi chiamo (?P<v>.+)", _name(capped=False)),
    (r"\bil mio nome (?:è|e'|é) (?P<v>.+)", _name(capped=False)),
    (r"\bje m'appelle (?P<v>.+)", _name(capped=False)),
    (r"\bmon (?:pré)?nom (?:est|c'est) (?P<v>.+)", _name(capped=False)),
    (r"\b(?:call me|chiamami|appelle-moi|i go by) (?P<v>.+)", _name(capped=True)),
    (r"\bi (?:currently |now |still )?live in (?P<v>.+)",
     _place("Lives in", "home", lower_ok=True)),
    (p.I_AM + r" (?:currently |now )?(?:living|based) in (?P<v>.+)",
     _place("Lives in", "home", lower_ok=True)),
    (r"\bi (?:just |recently )?moved to (?P<v>.+)", _place("Lives in", "home", lower_ok=False)),
    (r"\b(?:vivo|abito|risiedo) (?:a|ad|in) (?P<v>.+)", _place("Lives in", "home", lower_ok=True)),
    (r"\bmi sono (?:appena )?trasferit[oa] (?:a|ad|in) (?P<v>.+)",
     _place("Lives in", "home", lower_ok=False)),
    (r"\b(?:j'habite|je vis|je réside|j'ai déménagé) (?:à|a|en|au|aux) (?P<v>.+)",
     _place("Lives in", "home", lower_ok=True)),
    (p.I_AM + r" (?:originally )?from (?P<v>.+)", _place("Is from", "origin", lower_ok=False)),
    (r"\bi (?:originally )?come from (?P<v>.+)", _place("Is from", "origin", lower_ok=False)),
    (r"\bsono (?:originari[oa] )?di (?P<v>.+)", _place("Is from", "origin", lower_ok=False)),
    (r"\bvengo da (?P<v>.+)", _place("Is from", "origin", lower_ok=False)),
    (r"\bje (?:suis|viens) (?:originaire )?(?:de |d')(?P<v>.+)",
     _place("Is from", "origin", lower_ok=False)),
    (r"\bi (?:currently |now )?work as (?P<v>.+)", _work_as(dictionary_only=False)),
    (p.I_AM + r" (?:currently |now )?employed as (?P<v>.+)", _work_as(dictionary_only=False)),
    (p.I_AM + r" (?:(?:currently|now|actually) )?(?P<art>a|an) (?P<v>.+)", _im_a),
    (p.I_AM + r" (?:now )?retired\b", _fixed("Is retired", "work_as")),
    (r"\blavoro come (?P<v>.+)", _work_as(dictionary_only=False)),
    (r"\bfaccio (?:il |la |lo |l')(?P<v>.+)", _faccio),
    (r"\bsono (?P<v>(?:un |una |uno |un')?[\w']+)", _work_as(dictionary_only=True)),
    (r"\bsono in pensione\b", _fixed("Is retired", "work_as")),
    (r"\bje travaille (?:comme|en tant que) (?P<v>.+)", _work_as(dictionary_only=False)),
    (r"\bje suis (?P<v>(?:un |une )?[\w-]+)", _work_as(dictionary_only=True)),
    (r"\bje suis à la retraite\b", _fixed("Is retired", "work_as")),
    (r"\bi (?:currently |now )?work (?:at|for) (?P<v>.+)", _work_at(names_ok=True)),
    (r"\blavoro (?:presso|per|da) (?P<v>.+)", _work_at(names_ok=True)),
    (r"\blavoro (?:in|nel|nella|all'|alla|al) ?(?P<v>.+)", _work_at(names_ok=False)),
    (r"\bje travaille (?:chez|pour) (?P<v>.+)", _work_at(names_ok=True)),
    (r"\bje travaille (?:à l'|à la |au |dans une |dans un |dans l')(?P<v>.+)",
     _work_at(names_ok=False)),
    (r"\bi (?:have|'ve got|have got) (?P<n>" + p.NUM + r") (?P<v>" + p.COUNT_NOUNS
     + r")\b(?P<rest>.*)", _count),
    (r"\bho (?P<n>" + p.NUM_IT + r") ?(?P<v>" + p.COUNT_NOUNS + r")\b(?P<rest>.*)", _count),
    (r"\bj'ai (?P<n>" + p.NUM_FR + r") (?P<v>" + p.COUNT_NOUNS + r")\b(?P<rest>.*)", _count),
    (r"\bmy (?P<r>" + p.RELS_EN + r")(?:'s name is| is called| is named| name is) (?P<v>.+)",
     _relative(capped=False)),
    (r"\bmy (?P<r>" + p.RELS_EN + r")(?: is)? (?P<v>.+)", _relative(capped=True)),
    (r"\b(?:mia|mio) (?P<r>" + p.RELS_IT + r") si chiama (?P<v>.+)", _relative(capped=False)),
    (r"\b(?:mia|mio) (?P<r>" + p.RELS_IT + r")(?: è| e')? (?P<v>.+)", _relative(capped=True)),
    (r"\b(?:ma|mon) (?P<r>" + p.RELS_FR + r") s'appelle (?P<v>.+)", _relative(capped=False)),
    (r"\b(?:ma|mon) (?P<r>" + p.RELS_FR + r")(?: est)? (?P<v>.+)", _relative(capped=True)),
    (p.I_AM + r" (?:happily )?(?P<v>married|engaged|divorced|widowed)\b", _status("marital")),
    (r"\bsono (?P<v>sposat[oa]|fidanzat[oa]|divorziat[oa]|vedov[oa])\b", _status("marital")),
    (r"\bje suis (?P<v>mariée?|fiancée?|divorcée?|veuf|veuve)\b", _status("marital")),
    (p.I_AM + r" (?:a |an )?(?:strict )?(?P<v>vegetarian|vegan|pescatarian)\b", _status("diet")),
    (r"\bsono (?:un |una )?(?P<v>vegetarian[oa]|vegan[oa]?|pescetarian[oa])\b", _status("diet")),
    (r"\bje suis (?P<v>végétarien(?:ne)?|végétalien(?:ne)?|vegan[e]?|végane?)\b", _status("diet")),
    (r"\bi (?:really |much |generally |usually |always |definitely )?prefer (?P<v>.+)",
     _taste("Prefers")),
    (r"\bi (?:really |do |genuinely )?(?:like|enjoy) (?P<v>.+)", _taste("Likes")),
    (r"\bi (?:really |absolutely )?love (?P<v>.+)", _taste("Loves")),
    (r"\bi (?:really )?(?:hate|dislike|detest) (?P<v>.+)", _taste("Dislikes")),
    (p.I_AM + r" (?:a )?(?:big |huge |great )?fan of (?P<v>.+)", _taste("Likes")),
    (r"\bpreferisco (?P<v>.+)", _taste("Prefers")),
    (r"\bmi (?:piace|piacciono)(?: molto| tanto)? (?P<v>.+)", _taste("Likes")),
    (r"\b(?:adoro|amo) (?P<v>.+)", _taste("Loves")),
    (r"\bodio (?P<v>.+)", _taste("Dislikes")),
    (r"\bje préfère (?P<v>.+)", _taste("Prefers")),
    (r"\bj'aime (?:bien |beaucoup |vraiment )?(?P<v>.+)", _taste("Likes")),
    (r"\bj'adore (?P<v>.+)", _taste("Loves")),
    (r"\bje déteste (?P<v>.+)", _taste("Dislikes")),
    (r"\bmy (?:main |big |current |long-term )?(?:goal|dream|ambition) is (?:to )?(?P<v>.+)",
     _goal("Goal: ")),
    (r"\bi (?:really )?(?:want|plan|intend|aim|'m planning|am planning|'m trying|am trying) to "
     r"(?P<v>(?:learn|become|run|move to|start|build|improve|master|travel to|visit|speak|write|"
     r"finish|open|launch|study|get better at|retire|pass|complete)\b.+)", _goal("Goal: ")),
    (p.I_AM + r" (?:currently )?training for (?P<v>.+)", _goal("Is training for ")),
    (p.I_AM + r" (?:currently )?learning (?P<v>.+)", _goal("Is learning ")),
    (r"\b(?:il )?mio (?:obiettivo|sogno) (?:è|e') (?:di |quello di )?(?P<v>.+)", _goal("Goal: ")),
    (r"\bvoglio (?P<v>(?:imparare|diventare|correre|trasferirmi|visitare|studiare|migliorare|"
     r"iniziare|aprire|scrivere|finire|parlare)\b.+)", _goal("Goal: ")),
    (r"\bsto imparando (?P<v>.+)", _goal("Is learning ")),
    (r"\bmi sto allenando per (?P<v>.+)", _goal("Is training for ")),
    (r"\bmon (?:principal |grand )?(?:objectif|but|rêve) (?:est|c'est) (?:de |d')?(?P<v>.+)",
     _goal("Goal: ")),
    (r"\bje veux (?P<v>(?:apprendre|devenir|courir|déménager|visiter|étudier|améliorer|commencer|"
     r"ouvrir|écrire|finir|parler)\b.+)", _goal("Goal: ")),
    (r"\bj'apprends (?P<v>.+)", _goal("Is learning ")),
    (r"\bje m'entra[îi]ne pour (?P<v>.+)", _goal("Is training for ")),
)  # fmt: skip
_COMPILED: Final = tuple((re.compile(rx, re.IGNORECASE), build) for rx, build in _RULES)


def extract(text: str, *, strict: bool = False) -> list[Fact]:
    """Facts stated in one text by the person, skipping questions, maybes and negations."""
    facts: list[Fact] = []
    for sentence in p.split_sentences(text):
        if p.is_question(sentence) or p.is_hypothetical(sentence):
            continue
        for clause in p.split_clauses(sentence):
            if p.is_negated(clause) or p.is_reported(clause):
                continue
            for pattern, build in _COMPILED:
                match = pattern.search(clause)
                fact = build(match, strict) if match else None
                if fact and _line_ok(fact.line, strict) and fact not in facts:
                    facts.append(fact)
    return facts


def _line_ok(line: str, strict: bool) -> bool:
    if not MIN_LINE <= len(line) <= MAX_LINE:
        return False
    # A voice transcript can mishear: symbols and stray characters make a line suspect.
    return not strict or bool(p.VOICE_SAFE_RE.fullmatch(line))


def note_facts(note: str, *, strict: bool) -> list[Fact]:
    """Facts of an explicit "remember that …": a known pattern, else the note itself."""
    note = note.strip().rstrip("?!.;").strip()
    facts = extract(note, strict=strict)
    if facts:
        return facts
    text = p.cut_value(note) if strict else note
    # A one-word note ("remember that.") says nothing; voice needs more to rule out a mishearing.
    if len(text.split()) < (3 if strict else 2):
        return []
    if text.lower().startswith("my "):
        line = p.capitalise(text[3:].strip())  # "my sister's birthday is 3 May"
    else:
        line = "Note: " + p.capitalise(text)
    if len(line) > MAX_LINE:
        line = line[: MAX_LINE - 1].rsplit(" ", 1)[0] + "…"
    return [Fact(line)] if _line_ok(line, strict) else []


# --- recognising the kind of an existing line -------------------------------------------------
_LINE_KINDS: Final = (
    (re.compile(r"^(?:name is|name:|first name:|called)\s", re.I), p.TIER_NAME, "name"),
    (re.compile(r"^(?:lives in|based in|home:)\s", re.I), p.TIER_HOME, "home"),
    (re.compile(r"^(?:is from|from:|comes from)\s", re.I), p.TIER_HOME, "origin"),
    (re.compile(r"^(?:works as|job:|occupation:|is a student$|is retired$)", re.I), p.TIER_WORK,
     "work_as"),
    (re.compile(r"^(?:works at|works for|employer:)\s", re.I), p.TIER_WORK, "work_at"),
    (re.compile(r"^is (?:married|engaged|divorced|widowed)$", re.I), p.TIER_FAMILY, "marital"),
    (re.compile(r"^is (?:vegetarian|vegan|pescatarian)$", re.I), p.TIER_PREFERENCE, "diet"),
    (re.compile(r"^(?:prefers|likes|loves|dislikes|enjoys)\s", re.I), p.TIER_PREFERENCE, None),
    (re.compile(r"^(?:goal:|is learning|is training for|wants to)\s", re.I), p.TIER_GOAL, None),
)  # fmt: skip
_HAS_RE: Final = re.compile(
    r"^has (?:a|an|one|two|three|four|five|six|seven|eight|nine|ten|\d+) (.+)$", re.I
)
_RELATION_LINE_RE: Final = re.compile(r"^(\w+)(?:'s name)? is ", re.I)
_TASTE_RE: Final = re.compile(r"^(?:likes|loves|dislikes|enjoys) (.+)$", re.I)


def classify_line(line: str) -> tuple[int, str | None]:
    """Return (tier, key) of a memory line; lines sharing a non-None key hold one value."""
    text = p.normalise(line)
    for pattern, tier, key in _LINE_KINDS:
        if pattern.match(text):
            taste = _TASTE_RE.match(text)
            if taste:
                return tier, "taste:" + p.line_norm(taste.group(1))
            return tier, key
    has = _HAS_RE.match(text)
    if has:
        return p.TIER_FAMILY, _has_key(has.group(1))
    relation = _RELATION_LINE_RE.match(text)
    if relation and relation.group(1).lower() in p.RELATIONS:
        noun = p.RELATIONS[relation.group(1).lower()]
        return p.TIER_FAMILY, f"rel:{noun}" if noun in p.SINGLE_RELATIONS else None
    return p.TIER_NOTE, None


def _has_key(rest: str) -> str | None:
    """Key "has:<adjectives> <relative>" so "Has three kids" replaces "Has two kids"."""
    words: list[str] = []
    for word in rest.lower().split():
        if word in p.RELATIONS:
            noun = p.RELATIONS[word]
            noun = noun.removesuffix("ren") if noun.endswith("children") else noun.removesuffix("s")
            return "has:" + " ".join([*words, noun])
        words.append(word)
    return None


# --- applying facts to the list ---------------------------------------------------------------
