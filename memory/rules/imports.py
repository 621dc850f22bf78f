"""A pasted memory read by code (issue 30): what ChatGPT, Claude or Gemini print when asked what
they remember, turned into candidate lines. No model reads a paste, so a paste cannot instruct
one.

Pure module. The forms: bullets, numbers, dates ("[2025-03-04] …"), headed sections, quotes,
labels ("**Work:** …") and plain lines. Each sentence becomes a short third-person line in its
own language (``memory.rules.persons``). The gate, the tombstones and the cap decide what is
kept; that is the service's part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Final

from memory.rules import portable, provenance
from memory.rules.lines import clean_text
from memory.rules.persons import (
    as_told_to_assistant,
    assistant_speaking,
    language_of,
    speaker,
    third_person,
    without_frame,
    without_subject,
)

# Where a paste comes from, as the person says: kept on each imported line, named on the page.
PRODUCT_NAMES: Final = {"chatgpt": "ChatGPT", "claude": "Claude", "gemini": "Gemini"}
PRODUCTS: Final = (*PRODUCT_NAMES, "other")
# A paste longer than this is refused before it is read (the API's bound).
MAX_PASTE_CHARS: Final = 50_000
# A paste offers at most this many lines (a full memory holds about 50): the gate reads each.
MAX_CANDIDATES: Final = 400


@dataclass(frozen=True)
class Candidate:
    """One line a paste offers, and the day it says it was learned, if it says.

    ``context``: what the paste said around it, for the gate to read too: the sentence before
    it was rewritten, under its heading, and the product's intro before it. Rewriting drops
    words ("You should always …", "Password: …") that tell an instruction or a secret.
    ``spans``: the sentences of its item, read together for a secret or an order that only
    they make together ("My PIN. It is 4821"); one refused alone is refused on its own."""

    text: str
    dated: date | None = None
    context: tuple[str, ...] = field(default=(), compare=False)
    spans: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    # A line of our own export keeps the source it had there (``memory.rules.portable``).
    source: provenance.Source | None = field(default=None, compare=False)


_MARKER_RE: Final = re.compile(
    r"^(?:[-*+>\u2022\u00b7\u2023\u25aa\u25e6\u2013\u2014]|\(?\d{1,3}[.)])\s+"
)
_DATE_RE: Final = re.compile(
    r"^[\[(]?(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})[\])]?(?:\s*[.:|\u2013\u2014-])?\s+"
)
# Other ways products write a day first: "(March 3, 2024)", "3 mars 2024:", "15/06/2024 -".
# Hand-written, not dateutil: its parser knows English month names only and guesses which of
# 03/04 is the day; here an order that cannot be told is no day.
_MONTHS: Final = {
    "sept": 9,
    **{
        name: number
        for names in (
            "january february march april may june july august september october november december",
            "gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre "
            "dicembre",
            "janvier février mars avril mai juin juillet août septembre octobre novembre décembre",
            "jan feb mar apr may jun jul aug sep oct nov dec",
        )
        for number, name in enumerate(names.split(), 1)
    },
}
_MONTH: Final = "|".join(sorted(map(re.escape, _MONTHS), key=len, reverse=True))
_DATE_END: Final = r"[\])]?(?:\s*[.:|\u2013\u2014-])?\s+"
_OTHER_DATE_RES: Final = (
    re.compile(
        rf"^[\[(]?(?:(?P<day>\d{{1,2}})(?:er)?\s+(?P<month>{_MONTH})\.?"
        rf"|(?P<month2>{_MONTH})\.?\s+(?P<day2>\d{{1,2}})(?:st|nd|rd|th)?,?)\s+(?P<y>\d{{4}}){_DATE_END}",
        re.IGNORECASE,
    ),
    re.compile(rf"^[\[(]?(?P<a>\d{{1,2}})[/.](?P<b>\d{{1,2}})[/.](?P<y>\d{{4}}){_DATE_END}"),
)
# A month without its day ("(April 2024) Moved to Oakland"): said after the fact instead.
_MONTH_ONLY_RE: Final = re.compile(
    rf"^[\[(](?P<when>(?:{_MONTH})\.?\s+\d{{4}})[\])](?:\s*[.:|\u2013\u2014-])?\s+", re.IGNORECASE
)
# A tag in brackets where a date would be ("[unknown] - …"), dropped.
_TAG_RE: Final = re.compile(r"^\[[^\]\d]{1,20}\](?:\s*[:|\u2013\u2014-])?\s+")
_HEADING_RE: Final = re.compile(r"^(?:#{1,6}\s.*|\*\*[^*]+\*\*:?|__[^_]+__:?|.{1,80}:)$")
# A marked item ending in a colon is a heading only when it is this short ("- Work:").
HEADING_WORDS: Final = 3
_EMPHASIS_RE: Final = re.compile(r"\*\*|__|`")
_QUOTED_RE: Final = re.compile(r"^[\"\u201c\u201e\u00ab]\s*(.*?)\s*[\"\u201d\u00bb]$")
# A colon after this many words or more, before the person as subject, ends the product's intro.
INTRO_WORDS: Final = 4
_SUBJECT_START_RE: Final = re.compile(
    r"(?:the user|user|you|you're|your|i|i'm|my|tu|ti|tuo|tua|vous|votre|vos|ton|ta|tes|je|j'"
    r"|io|il tuo|la tua|l'utente|l'utilisat(?:eur|rice))\b",
    re.IGNORECASE,
)
# A sentence ends at a stop before a capital, unless the stop ends a title ("Dr. Rossi").
_TITLES: Final = ("Mr", "Ms", "Mrs", "Dr", "St", "Sig", "Mme", "Jr", "Sr", "Prof", "Sen")
_SENTENCE_END_RE: Final = re.compile(
    "".join(rf"(?<!\b{title}\.)(?<!\b{title.lower()}\.)" for title in _TITLES)
    + r"(?<=[.!?;])\s+(?=[^\W\d_])"
)
# "Work: Is a designer": a label and a value.
_LABEL_RE: Final = re.compile(r"^(?P<label>[^:]{1,40}):\s+(?P<value>.+)$")


def read_paste(text: str) -> list[Candidate]:
    """The candidate lines of a paste, in its order, empty ones and headings left out.

    When some items carry a marker (a bullet, a number or a date), lines without one are
    headings or the product's own words around the list, and are left out; an indented line
    continues the item above it. Our own export is read as it was written."""
    if (ours := portable.read(text)) is not None:
        return [Candidate(" ".join(clean_text(line).split()), source=src) for line, src in ours]
    rows = [
        row
        for row in clean_text(text.replace("\r\n", "\n").replace("\r", "\n")).splitlines()
        if not row.lstrip().startswith("```")
    ]
    marked = any(_marked(row.strip()) for row in rows)
    items: list[tuple[str, str]] = []  # (heading, item)
    heading = ""
    for at, row in enumerate(rows):
        stripped = " ".join(row.split())
        if not stripped:
            continue
        if _is_heading(stripped) or _names_its_sub_items(rows, at):
            heading = _plain(_unmarked(stripped)[0].lstrip("#").strip())
            continue
        if marked and not _marked(stripped):
            if row[:1].isspace() and items:
                items[-1] = (items[-1][0], f"{items[-1][1]} {stripped}")
            continue
        items.append((heading, stripped))
    language = language_of(text)
    read = [(heading, *_unmarked(item)) for heading, item in items]
    # Prose that speaks to the person (or of "the user"): its "I" is the assistant's. A list
    # may mix the two for the person ("- I live …", "- You work …").
    addressed = not marked and _addressed([_plain(body) for _, body, _ in read])
    found: list[Candidate] = []
    as_pasted: list[str] = []  # each candidate's sentence, for its neighbours' spans
    for heading, body, dated in read:
        # Each sentence without the product's intro, subject and frame: "the user" is only
        # its name for the person, which the gate would read as the assistant's words.
        sentences = [
            (intro, said, without_frame(without_subject(said)))
            for intro, rest in (
                _intro_of(sentence, addressed=addressed)
                for sentence in _SENTENCE_END_RE.split(_plain(body))
            )
            if (said := _plain(rest))
        ]
        spans = (tuple(as_said for _, _, as_said in sentences),) if len(sentences) > 1 else ()
        for intro, said, as_said in sentences:
            if _chatter(said, addressed=addressed):
                continue
            line = _line(said, language)
            if not line:
                continue
            told = as_told_to_assistant(said.replace("\u2019", "'"))
            context = [as_said, intro, told, *([f"{heading}: {as_said}"] if heading else [])]
            found.append(
                Candidate(
                    line,
                    _plausible(dated),
                    tuple(text for text in dict.fromkeys(context) if text),
                    spans,
                )
            )
            as_pasted.append(as_said)
            if len(found) == MAX_CANDIDATES:
                return _with_neighbours(found, as_pasted)
    return _with_neighbours(found, as_pasted)


def _with_neighbours(found: list[Candidate], as_pasted: list[str]) -> list[Candidate]:
    """Each candidate read with the one before and the one after, wherever a line break
    falls: "- The PIN" / "- 4821", an IBAN or a card split over two lines."""
    pairs = [tuple(as_pasted[at : at + 2]) for at in range(len(as_pasted) - 1)]
    return [
        replace(candidate, spans=(*candidate.spans, *pairs[max(at - 1, 0) : at + 1]))
        for at, candidate in enumerate(found)
    ]


def bound_of(text: str) -> int:
    """The most characters ``text`` may hold: as a paste of lines, or a document of ours."""
    return portable.MAX_DOCUMENT_CHARS if portable.is_json(text) else MAX_PASTE_CHARS


def _chatter(sentence: str, *, addressed: bool) -> bool:
    """The product talking to the person, never a fact: a question, an exclamation of a few
    words ("Sure!"), the assistant speaking of itself to them, or its "I" where the paste
    speaks to them ("That's all I have", "Non ho date precise")."""
    if sentence.endswith("?") or (sentence.endswith("!") and len(sentence.split()) <= 3):
        return True
    return assistant_speaking(sentence) or (addressed and speaker(sentence) == "first")


def _addressed(bodies: list[str]) -> bool:
    """Whether the paste says its facts to the person ("You live …", "The user lives …"), at
    least twice as often as in their own words ("I live …")."""
    said = [speaker(s) for body in bodies for s in _SENTENCE_END_RE.split(body)]
    named = sum(without_subject(body) != body for body in bodies)
    return said.count("second") + named >= 2 * max(1, said.count("first"))


def _intro_of(sentence: str, *, addressed: bool) -> tuple[str, str]:
    """The product's intro on the fact's own line, and the fact ("Here's what I know: You …",
    "A summary of what is saved about the user: The user is …"); no intro: ("", sentence).
    A short label stays ("Password: I'm …"): it may be what makes a secret."""
    intro, colon, rest = sentence.partition(": ")
    intro = intro.rstrip()  # French puts a space before the colon
    if not colon or not (rest[:1].isupper() or _SUBJECT_START_RE.match(rest)):
        return "", sentence
    if (_chatter(intro, addressed=addressed) and not _chatter(rest, addressed=addressed)) or (
        len(intro.split()) >= INTRO_WORDS and _SUBJECT_START_RE.match(rest)
    ):
        return intro, rest
    return "", sentence


def _plausible(day: date | None) -> date | None:
    """A day a fact could have been learned on: none before 2000 or after today."""
    return day if day and date(2000, 1, 1) <= day <= date.today() else None


def _names_its_sub_items(rows: list[str], at: int) -> bool:
    """A short marked item above indented ones is their category ("- Health", "1. Work")."""
    row = rows[at]
    body, _ = _unmarked(row.strip())
    if not _marked(row.strip()) or len(body.split()) > HEADING_WORDS:
        return False
    below = next((later for later in rows[at + 1 :] if later.strip()), "")
    indent = len(row) - len(row.lstrip())
    return _marked(below.strip()) and len(below) - len(below.lstrip()) > indent


def _is_heading(row: str) -> bool:
    if not _HEADING_RE.match(row):
        return False
    body, _ = _unmarked(row)
    return body == row or len(body.split()) <= HEADING_WORDS or body.startswith(("**", "__"))


def _line(sentence: str, language: str | None) -> str:
    """A sentence as a memory line; a label goes when its value says the fact in full
    ("Work: You're a designer" → "Is a designer"), else it stays ("Name: Anna")."""
    if labelled := _LABEL_RE.match(sentence):
        value = labelled["value"]
        said = third_person(value, language)
        if said != value[:1].upper() + value[1:]:
            return said
        return f"{labelled['label']}: {_unquoted(value)}"
    return third_person(sentence, language)


def _marked(row: str) -> bool:
    return bool(
        _MARKER_RE.match(row)
        or _DATE_RE.match(row)
        or _TAG_RE.match(row)
        or _other_date(row)
        or _MONTH_ONLY_RE.match(row)
    )


def _unmarked(item: str) -> tuple[str, date | None]:
    """The item without its markers, and its date ("- [2025-03-04] - Likes figs")."""
    dated = None
    for _ in range(3):
        if found := _DATE_RE.match(item):
            try:
                dated = date(int(found["y"]), int(found["m"]), int(found["d"]))
            except ValueError:
                break  # not a day: text
            item = item[found.end() :]
        elif (said := _other_date(item)) is not None:
            dated, item = said
        elif found := _MONTH_ONLY_RE.match(item):
            item = f"{item[found.end() :]} ({found['when']})"
        elif found := _MARKER_RE.match(item) or _TAG_RE.match(item):
            item = item[found.end() :]
        else:
            break
    return item, dated


def _other_date(item: str) -> tuple[date, str] | None:
    """A day written another way at the item's start, and the rest; None if there is none."""
    for pattern in _OTHER_DATE_RES:
        if not (found := pattern.match(item)):
            continue
        groups = found.groupdict()
        if "a" in groups:  # 15/06/2024: the day is the number a month cannot be
            first, second = int(found["a"]), int(found["b"])
            if (first > 12) == (second > 12):
                return None  # 03/04/2024: no telling, so no day and the text stays
            day, month = (first, second) if first > 12 else (second, first)
        else:
            day = int(found["day"] or found["day2"])
            month = _MONTHS[(found["month"] or found["month2"]).lower()]
        try:
            return date(int(found["y"]), month, day), item[found.end() :]
        except ValueError:
            return None
    return None


def _plain(text: str) -> str:
    """No emphasis, no quotes around it, no full stop or colon at its end."""
    return _unquoted(_EMPHASIS_RE.sub("", text).strip()).rstrip(".;:").strip()


def _unquoted(text: str) -> str:
    found = _QUOTED_RE.match(text)
    return found[1] if found else text
